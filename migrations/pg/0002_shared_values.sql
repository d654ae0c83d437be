-- pg/0002_shared_values.sql — each kind's shared state as values that
-- every finished game merges in its own transaction (as SQLite's
-- 0005_shared_values.sql, which says why): nodes add up instead of
-- overwriting each other's state.
CREATE TABLE shared_values (
	kind        text NOT NULL,
	key         text NOT NULL,
	value       bigint NOT NULL,
	PRIMARY KEY (kind, key)
);

ALTER TABLE games ADD COLUMN table_id bigint, ADD COLUMN shared_delta text;
CREATE UNIQUE INDEX games_once ON games (table_id, started_at) WHERE table_id IS NOT NULL;

-- The saved states become values (two levels deep: our kinds' shapes); a
-- row that is not JSON is dropped, with a warning in the server's log.
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT kind, json FROM shared_state LOOP
		BEGIN
			INSERT INTO shared_values (kind, key, value)
			WITH doc AS (SELECT r.json::jsonb AS j),
			     st AS (SELECT CASE WHEN jsonb_typeof(j) = 'object' AND j ? 'app_v'
						THEN j -> 'state' ELSE j END AS s FROM doc),
			     top AS (SELECT e.key, e.value FROM st, jsonb_each(
					CASE WHEN jsonb_typeof(s) = 'object' THEN s ELSE '{}' END) e),
			     leaf AS (SELECT key, value FROM top
				      UNION ALL
				      SELECT top.key || '.' || e.key, e.value FROM top, jsonb_each(
					CASE WHEN jsonb_typeof(top.value) = 'object'
					     THEN top.value ELSE '{}' END) e),
			     num AS (SELECT key, (value #>> '{}')::numeric AS v FROM leaf
				     WHERE jsonb_typeof(value) = 'number')
			SELECT r.kind, key, v::bigint FROM num
			WHERE v >= 0 AND v = trunc(v) AND v < 1e15;
		EXCEPTION WHEN others THEN
			RAISE WARNING 'shared state of % dropped: %', r.kind, SQLERRM;
		END;
	END LOOP;
END $$;
DROP TABLE shared_state;
