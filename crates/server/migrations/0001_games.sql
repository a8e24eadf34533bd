-- A game is its record: the record's header (scenario, options, seed, dice, data version; no
-- actions) in `games`, and its actions, one row each in order, in `actions`. The same SQL runs
-- on SQLite and PostgreSQL.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    -- The engine::GameRecord as JSON, with an empty action list.
    header TEXT NOT NULL,
    -- JSON list of seats: [{ "seat": name, "player": "human" | AI player, "token_hash": hex | null }].
    seats TEXT NOT NULL,
    -- How many changes (actions and undos) the game has had; every change adds one.
    revision BIGINT NOT NULL,
    -- The state hash after the last action, checked when the game is rebuilt.
    state_hash TEXT NOT NULL,
    -- Seconds since 1970 when the game was created.
    created BIGINT NOT NULL
);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- The action's place in the record, from 0.
    seq BIGINT NOT NULL,
    -- The engine::RecordedAction as JSON.
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
