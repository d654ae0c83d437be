-- 0005_shared_values.sql — each kind's shared state (gems: adventure-use
-- counts, records) as values that every finished game merges, in its own
-- transaction, instead of a JSON text saved whole by the node that played
-- it: two lairds sharing a database add up instead of overwriting each
-- other. A value merges with its key's aggregation (the kind's
-- shared_defs: SUM adds, MIN keeps the least, MAX the greatest); a key is
-- the path of the value in the kind's JSON ("adventure_uses.banker").
CREATE TABLE shared_values (
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL,
	value       INTEGER NOT NULL,
	PRIMARY KEY (kind, key)
) WITHOUT ROWID;

-- Which table's game a record is, and what it merged into its kind's
-- shared state (JSON {key: value}): a game is recorded once, however
-- often its record is sent (a retry after a lost answer, a takeover), and
-- the shared values can be checked against the records.
ALTER TABLE games ADD COLUMN table_id INTEGER;   -- NULL: recorded before 0005
ALTER TABLE games ADD COLUMN shared_delta TEXT;
CREATE UNIQUE INDEX games_once ON games (table_id, started_at) WHERE table_id IS NOT NULL;

-- The saved states become values: every whole number >= 0 of the saved
-- JSON ({"app_v": 1, "state": ...} or the bare state), keyed by its path
-- (SQLite quotes some names in a path: the quotes go).
-- A row that is not JSON is dropped (the kind starts fresh, as it did when
-- it could not read it). The events of games in play at the upgrade that
-- the old state already held are merged again with their records.
INSERT INTO shared_values (kind, key, value)
	SELECT s.kind, replace(substr(t.fullkey, length(s.root) + 2), '"', ''), t.value
	FROM (SELECT kind, CASE WHEN json_valid(json) THEN json ELSE '{}' END AS json,
		     CASE WHEN json_valid(json) AND json_type(json, '$.app_v') IS NOT NULL
			  THEN '$.state' ELSE '$' END AS root
	      FROM shared_state) s,
	     json_tree(s.json, s.root) t
	WHERE t.type = 'integer' AND t.value >= 0 AND length(t.fullkey) > length(s.root) + 1;
DROP TABLE shared_state;
