-- 0004_first_runs.sql — which kinds each player has finished a game of.
-- A player with no row for a kind has never finished a game of it: that is
-- a crawl player's first run (docs/rules/crawl.md C15), kept here so that it
-- holds across devices. A row is written with the game's record, in the same
-- transaction; the games recorded before this migration fill it now.
CREATE TABLE player_kinds (
	player_id   INTEGER NOT NULL REFERENCES players (id),
	kind        TEXT NOT NULL,
	first_game  INTEGER NOT NULL,  -- games.id of the first one finished
	PRIMARY KEY (player_id, kind)
) WITHOUT ROWID;

INSERT INTO player_kinds (player_id, kind, first_game)
	SELECT gp.player_id, g.kind, min(g.id)
	FROM game_players gp JOIN games g ON g.id = gp.game_id
	GROUP BY gp.player_id, g.kind;
