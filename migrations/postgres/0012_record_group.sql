-- PostgreSQL only (migrations/sqlite/0012 is its empty twin: SQLite sends a group as two
-- multi-statement queries instead). A group commit's plain records in one statement, the
-- statement its own transaction: one round trip where the records' statements one by one
-- took a dozen. Records carrying a session's whole facts still go statement by statement.
--
-- The group is one JSONB array, not parallel arrays: a record has a variable number of
-- postings and facts rows. Each element:
--   {"session": id, "count": events it was computed after, "kind", "body", "explanation",
--    "recorded_at", "entry": text, "key": text or null,
--    "postings": [[account, "cents"], ...],
--    "club": id or null (the club whose lock the record takes),
--    "facts": null or {"club": id, "game", "played_at",
--              "status": null or [hands, closed 0/1, settled 0/1],
--              "results": [{"player", "net_cents": "cents", "hands_bid", "hands_made",
--                           "hands_set", "games_won", "kitties_taken", "new": true/false}, ...],
--              "bids": [[player, band, bids, made], ...],
--              "gone": [[player, band], ...] (bands an amendment left with no bid)}}
-- Cents are JSON strings of their digits cast to BIGINT: exact for every 64-bit amount, a
-- fraction is refused by the cast (never rounded), and no JSON number carries money.

-- A club session's facts difference (store::history::apply_facts_delta): status, each
-- player new to the session made one of the club's people and players
-- (store::history::ensure_person, store::clubs::add_player), results and bands upserted;
-- the club totals follow by the triggers of 0007 and 0010.
CREATE FUNCTION sk_record_facts(v_session BIGINT, f JSONB) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    v_club   BIGINT := (f->>'club')::BIGINT;
    v_name   TEXT;
    v_person BIGINT;
BEGIN
    IF jsonb_typeof(f->'status') = 'array' THEN
        INSERT INTO session_status (session_id, club_id, hands, closed, settled)
        VALUES (v_session, v_club, (f->'status'->>0)::BIGINT, (f->'status'->>1)::BIGINT,
                (f->'status'->>2)::BIGINT)
        ON CONFLICT (session_id) DO UPDATE SET hands = excluded.hands,
            closed = excluded.closed, settled = excluded.settled;
    END IF;
    FOR v_name IN
        SELECT x->>'player' FROM jsonb_array_elements(f->'results') WITH ORDINALITY AS e(x, n)
        WHERE (x->>'new')::BOOLEAN ORDER BY n
    LOOP
        SELECT person_id INTO v_person FROM player_names
        WHERE club_id = v_club AND name = v_name;
        IF NOT FOUND THEN
            SELECT id INTO v_person FROM people
            WHERE club_id = v_club AND lower(display_name) = lower(v_name);
            IF NOT FOUND THEN
                INSERT INTO people (club_id, display_name) VALUES (v_club, v_name)
                RETURNING id INTO v_person;
            END IF;
            INSERT INTO player_names (club_id, name, person_id) VALUES (v_club, v_name, v_person);
        END IF;
        INSERT INTO club_players (club_id, name) VALUES (v_club, v_name) ON CONFLICT DO NOTHING;
    END LOOP;
    INSERT INTO session_results (session_id, club_id, player, game, played_at, net_cents,
                                 hands_bid, hands_made, hands_set, games_won, kitties_taken)
    SELECT v_session, v_club, x->>'player', f->>'game', f->>'played_at',
           (x->>'net_cents')::BIGINT, (x->>'hands_bid')::BIGINT, (x->>'hands_made')::BIGINT,
           (x->>'hands_set')::BIGINT, (x->>'games_won')::BIGINT, (x->>'kitties_taken')::BIGINT
    FROM jsonb_array_elements(f->'results') WITH ORDINALITY AS e(x, n) ORDER BY n
    ON CONFLICT (session_id, player) DO UPDATE SET net_cents = excluded.net_cents,
        hands_bid = excluded.hands_bid, hands_made = excluded.hands_made,
        hands_set = excluded.hands_set, games_won = excluded.games_won,
        kitties_taken = excluded.kitties_taken;
    INSERT INTO session_bids (session_id, club_id, player, band, bids, made)
    SELECT v_session, v_club, x->>0, (x->>1)::BIGINT, (x->>2)::BIGINT, (x->>3)::BIGINT
    FROM jsonb_array_elements(f->'bids') WITH ORDINALITY AS e(x, n) ORDER BY n
    ON CONFLICT (session_id, player, band) DO UPDATE SET bids = excluded.bids,
        made = excluded.made;
    DELETE FROM session_bids b USING jsonb_array_elements(f->'gone') AS x
    WHERE b.session_id = v_session AND b.player = x->>0 AND b.band = (x->>1)::BIGINT;
END $$;

-- The group (store::append::record_group): each session's advisory lock in id order, then
-- the admitted records' clubs' (key = club id negated, keys in order), exactly the order
-- of store::append::lock_and_count and lock_clubs, so an instance still writing statement
-- by statement and this one cannot deadlock. A record is admitted when its session still
-- holds `count` events (a later record of the same session in the group goes after an
-- earlier one); each admitted one writes its idempotency key, event, ledger entry,
-- postings and facts difference. The answer: for each record in order, whether it was
-- written (false: stale, nothing of it written). Any error rolls the whole group back.
CREATE FUNCTION sk_record_group(records JSONB) RETURNS BOOLEAN[]
LANGUAGE plpgsql AS $$
DECLARE
    ids      BIGINT[];
    counts   BIGINT[];
    admitted JSONB := '[]';
    outcomes BOOLEAN[] := '{}';
    r        JSONB;
    k        INT;
    v_key    BIGINT;
    v_event  BIGINT;
    v_seq    BIGINT;
BEGIN
    SELECT array_agg(DISTINCT (x->>'session')::BIGINT ORDER BY (x->>'session')::BIGINT)
    INTO ids FROM jsonb_array_elements(records) AS x;
    IF ids IS NULL THEN
        RETURN outcomes;
    END IF;
    FOREACH v_key IN ARRAY ids LOOP
        PERFORM pg_advisory_xact_lock(v_key);
    END LOOP;
    -- One scalar MAX per session answers from the end of the (session_id, seq) index.
    SELECT array_agg((SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = u.id)
                     ORDER BY u.n)
    INTO counts FROM unnest(ids) WITH ORDINALITY AS u(id, n);
    FOR r IN SELECT x FROM jsonb_array_elements(records) WITH ORDINALITY AS e(x, n) ORDER BY n
    LOOP
        k := array_position(ids, (r->>'session')::BIGINT);
        IF counts[k] = (r->>'count')::BIGINT THEN
            counts[k] := counts[k] + 1;
            outcomes := outcomes || TRUE;
            admitted := admitted || jsonb_build_array(r);
        ELSE
            outcomes := outcomes || FALSE;
        END IF;
    END LOOP;
    FOR v_key IN
        SELECT DISTINCT -(x->>'club')::BIGINT AS key FROM jsonb_array_elements(admitted) AS x
        WHERE jsonb_typeof(x->'club') = 'number' ORDER BY key
    LOOP
        PERFORM pg_advisory_xact_lock(v_key);
    END LOOP;
    FOR r IN SELECT x FROM jsonb_array_elements(admitted) WITH ORDINALITY AS e(x, n) ORDER BY n
    LOOP
        v_seq := (r->>'count')::BIGINT + 1;
        IF jsonb_typeof(r->'key') = 'string' THEN
            INSERT INTO idempotency_keys (session_id, key, seq, created_at)
            VALUES ((r->>'session')::BIGINT, r->>'key', v_seq, r->>'recorded_at');
        END IF;
        INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at)
        VALUES ((r->>'session')::BIGINT, v_seq, r->>'kind', r->>'body', r->>'explanation',
                r->>'recorded_at')
        RETURNING id INTO v_event;
        INSERT INTO ledger_entries (event_id, entry) VALUES (v_event, r->>'entry');
        INSERT INTO postings (event_id, account, amount_cents)
        SELECT v_event, p->>0, (p->>1)::BIGINT
        FROM jsonb_array_elements(r->'postings') WITH ORDINALITY AS q(p, n) ORDER BY n;
        IF jsonb_typeof(r->'facts') = 'object' THEN
            PERFORM sk_record_facts((r->>'session')::BIGINT, r->'facts');
        END IF;
    END LOOP;
    RETURN outcomes;
END $$;
