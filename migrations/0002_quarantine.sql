-- 0002_quarantine.sql — live tables kept aside at restore.
-- A live table whose stored game cannot be rebuilt exactly (a decision
-- missing from its log, a decision the kind refuses, an unknown kind, a
-- damaged row) is neither replayed nor deleted: its row stays, marked with
-- the reason, until an admin drops it (admin_quarantined_drop; `lair admin
-- tables drop-quarantined ID`). A quarantined row is never ended, updated
-- or restored by the live-table statements.
ALTER TABLE live_tables ADD COLUMN quarantined TEXT;         -- NULL: in play
ALTER TABLE live_tables ADD COLUMN quarantined_at INTEGER;   -- unix ms
