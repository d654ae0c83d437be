-- 0003_last_seq.sql — a table's update sequence number (the protocol's
-- `seq`, one per update the table sends) as it was when each of its live
-- rows was written: a table restored after a restart continues above the
-- highest of them, so that its seq never goes back, also across rematches
-- (a new game's start record carries the table's seq so far). Rows written
-- before this migration read 0 (restore then falls back to its older rule).
ALTER TABLE live_tables ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE live_decisions ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
