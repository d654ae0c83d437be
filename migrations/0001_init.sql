-- 0001_init.sql — lair's first schema (players, results, statistics,
-- achievements, the kinds' shared states, the tables in play).
-- Applied once, in one transaction, by store_open(); PRAGMA user_version
-- records it. Never edit a migration that has shipped: add NNNN_next.sql.
-- Times are unix milliseconds; JSON columns are opaque text to the store.

-- Players. The secret token is never stored, only its SHA-256 (hex).
-- Names are unique ignoring ASCII case.
CREATE TABLE players (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) > 0),
	token_hash  TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
	role        INTEGER NOT NULL DEFAULT 0 CHECK (role IN (0, 1)), -- 1: admin
	created_at  INTEGER NOT NULL
);

-- Each game kind's server-wide state (gems: adventure-use counts, records).
CREATE TABLE shared_state (
	kind        TEXT PRIMARY KEY,
	json        TEXT NOT NULL,
	updated_at  INTEGER NOT NULL
);

-- Finished games: everything needed to replay one exactly.
CREATE TABLE games (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL,
	config      TEXT NOT NULL,
	seed        INTEGER NOT NULL,  -- uint64 stored bit-for-bit
	seats       TEXT NOT NULL,
	shared      TEXT,              -- the shared state the game started from
	choices     TEXT NOT NULL,
	result      TEXT NOT NULL,
	started_at  INTEGER NOT NULL,
	ended_at    INTEGER NOT NULL
);
CREATE INDEX games_by_kind ON games (kind, id);

-- Which player sat in which seat of a finished game.
CREATE TABLE game_players (
	game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat        INTEGER NOT NULL,
	player_id   INTEGER NOT NULL REFERENCES players (id),
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_player ON game_players (player_id, game_id);

-- Statistics folded with their definition's aggregation (SUM, MIN, MAX);
-- samples counts the games that contributed a value.
CREATE TABLE player_stats (
	player_id   INTEGER NOT NULL REFERENCES players (id),
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL,
	value       INTEGER NOT NULL,
	samples     INTEGER NOT NULL,
	PRIMARY KEY (player_id, kind, key)
) WITHOUT ROWID;

CREATE TABLE server_stats (
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL,
	value       INTEGER NOT NULL,
	samples     INTEGER NOT NULL,
	PRIMARY KEY (kind, key)
) WITHOUT ROWID;

CREATE TABLE player_achievements (
	player_id   INTEGER NOT NULL REFERENCES players (id),
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL,
	count       INTEGER NOT NULL,
	first_at    INTEGER NOT NULL,
	PRIMARY KEY (player_id, kind, key)
) WITHOUT ROWID;

-- Tables in play (crash recovery): how the game started and every
-- resolved decision, written before its reveal is sent. Removed when the
-- game is recorded or the table closes.
CREATE TABLE live_tables (
	table_id    INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL,
	config      TEXT NOT NULL,
	seed        INTEGER NOT NULL,
	seats       TEXT NOT NULL,
	shared      TEXT,
	meta        TEXT,
	started_at  INTEGER NOT NULL
);

CREATE TABLE live_decisions (
	table_id    INTEGER NOT NULL REFERENCES live_tables (table_id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	choices     TEXT NOT NULL,
	PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
