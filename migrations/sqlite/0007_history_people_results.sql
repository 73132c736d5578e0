-- Nights past (issue 12): what a club keeps about its sessions besides their events, one
-- identity per person, and per-session results kept as events are recorded, so the history,
-- player pages and leaderboard read aggregates instead of replaying every past session.
-- Everything here is derived from the events or is metadata: the events and postings stay
-- the only record of money, and the session documents keep the names players sat under.

-- A club's own notes on a session: a title ("Thursday at Sal's") and whether it is archived
-- (hidden from the history list, never deleted).
CREATE TABLE session_meta (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    title      TEXT    CHECK (title IS NULL OR length(title) BETWEEN 1 AND 80),
    archived   INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1))
) STRICT;

-- One person of a club, shown under `display_name` everywhere.
CREATE TABLE people (
    id           INTEGER PRIMARY KEY,
    club_id      INTEGER NOT NULL REFERENCES clubs (id),
    display_name TEXT    NOT NULL CHECK (length(display_name) BETWEEN 1 AND 40)
) STRICT;
CREATE UNIQUE INDEX people_by_name ON people (club_id, display_name COLLATE NOCASE);

-- Every name a club's seats and postings use, pointing at the person behind it. A merge
-- re-points names; a rename changes the person's display name. Seats never change.
CREATE TABLE player_names (
    club_id   INTEGER NOT NULL REFERENCES clubs (id),
    name      TEXT    NOT NULL,
    person_id INTEGER NOT NULL REFERENCES people (id),
    PRIMARY KEY (club_id, name)
) STRICT;
CREATE INDEX player_names_by_person ON player_names (person_id);

-- Where a club session stands, rewritten after every recorded event: hands that stand
-- (undone hands do not count), closed, settled (closed and every balance at zero).
CREATE TABLE session_status (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    club_id    INTEGER NOT NULL REFERENCES clubs (id),
    hands      INTEGER NOT NULL CHECK (hands >= 0),
    closed     INTEGER NOT NULL CHECK (closed IN (0, 1)),
    settled    INTEGER NOT NULL CHECK (settled IN (0, 1))
) STRICT;

-- One row per player per club session, rewritten after every recorded event from the
-- session as it stands (corrections and voids included): net money in cents (the sum of
-- the player's postings) and the engines' typed facts of the hands that stand.
CREATE TABLE session_results (
    session_id    INTEGER NOT NULL REFERENCES sessions (id),
    club_id       INTEGER NOT NULL REFERENCES clubs (id),
    player        TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    played_at     TEXT    NOT NULL,
    net_cents     INTEGER NOT NULL,
    hands_bid     INTEGER NOT NULL CHECK (hands_bid >= 0),
    hands_made    INTEGER NOT NULL CHECK (hands_made >= 0),
    hands_set     INTEGER NOT NULL CHECK (hands_set >= 0),
    games_won     INTEGER NOT NULL CHECK (games_won >= 0),
    kitties_taken INTEGER NOT NULL CHECK (kitties_taken >= 0),
    PRIMARY KEY (session_id, player)
) STRICT;
CREATE INDEX session_results_by_player ON session_results (club_id, player, session_id);
CREATE INDEX session_results_by_net ON session_results (club_id, player, net_cents);

-- Bids by band (the hundred they fall in: 300 covers 300–399; Pitch bids 1–4 are their own
-- band), per player per session, rewritten with `session_results`.
CREATE TABLE session_bids (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    club_id    INTEGER NOT NULL REFERENCES clubs (id),
    player     TEXT    NOT NULL,
    band       INTEGER NOT NULL,
    bids       INTEGER NOT NULL CHECK (bids > 0),
    made       INTEGER NOT NULL CHECK (made >= 0),
    PRIMARY KEY (session_id, player, band)
) STRICT;

-- Club totals per name and game, kept by the database as session rows come and go, so a
-- player page and the leaderboard read a handful of rows however many nights were played.
CREATE TABLE player_totals (
    club_id       INTEGER NOT NULL REFERENCES clubs (id),
    player        TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    nights        INTEGER NOT NULL,
    net_cents     INTEGER NOT NULL,
    hands_bid     INTEGER NOT NULL,
    hands_made    INTEGER NOT NULL,
    hands_set     INTEGER NOT NULL,
    games_won     INTEGER NOT NULL,
    kitties_taken INTEGER NOT NULL,
    PRIMARY KEY (club_id, player, game)
) STRICT;

CREATE TRIGGER player_totals_add AFTER INSERT ON session_results
BEGIN
    INSERT INTO player_totals (club_id, player, game, nights, net_cents, hands_bid, hands_made,
                               hands_set, games_won, kitties_taken)
    VALUES (NEW.club_id, NEW.player, NEW.game, 1, NEW.net_cents, NEW.hands_bid, NEW.hands_made,
            NEW.hands_set, NEW.games_won, NEW.kitties_taken)
    ON CONFLICT (club_id, player, game) DO UPDATE SET
        nights = nights + 1,
        net_cents = net_cents + excluded.net_cents,
        hands_bid = hands_bid + excluded.hands_bid,
        hands_made = hands_made + excluded.hands_made,
        hands_set = hands_set + excluded.hands_set,
        games_won = games_won + excluded.games_won,
        kitties_taken = kitties_taken + excluded.kitties_taken;
END;

CREATE TRIGGER player_totals_remove AFTER DELETE ON session_results
BEGIN
    UPDATE player_totals SET
        nights = nights - 1,
        net_cents = net_cents - OLD.net_cents,
        hands_bid = hands_bid - OLD.hands_bid,
        hands_made = hands_made - OLD.hands_made,
        hands_set = hands_set - OLD.hands_set,
        games_won = games_won - OLD.games_won,
        kitties_taken = kitties_taken - OLD.kitties_taken
    WHERE club_id = OLD.club_id AND player = OLD.player AND game = OLD.game;
END;

CREATE TABLE bid_totals (
    club_id INTEGER NOT NULL REFERENCES clubs (id),
    player  TEXT    NOT NULL,
    band    INTEGER NOT NULL,
    bids    INTEGER NOT NULL,
    made    INTEGER NOT NULL,
    PRIMARY KEY (club_id, player, band)
) STRICT;

CREATE TRIGGER bid_totals_add AFTER INSERT ON session_bids
BEGIN
    INSERT INTO bid_totals (club_id, player, band, bids, made)
    VALUES (NEW.club_id, NEW.player, NEW.band, NEW.bids, NEW.made)
    ON CONFLICT (club_id, player, band) DO UPDATE SET
        bids = bids + excluded.bids, made = made + excluded.made;
END;

CREATE TRIGGER bid_totals_remove AFTER DELETE ON session_bids
BEGIN
    UPDATE bid_totals SET bids = bids - OLD.bids, made = made - OLD.made
    WHERE club_id = OLD.club_id AND player = OLD.player AND band = OLD.band;
END;

CREATE INDEX sessions_by_club_game ON sessions (club_id, game, id);

-- Club sessions recorded before this migration, whose facts are written the first time the
-- club's history is read (every later session gets its facts as its events are recorded).
-- Kept as a queue so the pages never scan every session to find the missing ones.
CREATE TABLE history_backlog (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id)
) STRICT;
INSERT INTO history_backlog (session_id) SELECT id FROM sessions WHERE club_id IS NOT NULL;
