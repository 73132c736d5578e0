-- PostgreSQL twin of migrations/sqlite/0010: a player's result row and a band's row are
-- updated in place, so the club totals follow an update too.
CREATE FUNCTION player_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE player_totals SET
        net_cents = net_cents - OLD.net_cents + NEW.net_cents,
        hands_bid = hands_bid - OLD.hands_bid + NEW.hands_bid,
        hands_made = hands_made - OLD.hands_made + NEW.hands_made,
        hands_set = hands_set - OLD.hands_set + NEW.hands_set,
        games_won = games_won - OLD.games_won + NEW.games_won,
        kitties_taken = kitties_taken - OLD.kitties_taken + NEW.kitties_taken
    WHERE club_id = NEW.club_id AND player = NEW.player AND game = NEW.game;
    RETURN NULL;
END $$;
CREATE TRIGGER player_totals_change AFTER UPDATE ON session_results FOR EACH ROW
EXECUTE FUNCTION player_totals_change();

CREATE FUNCTION bid_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE bid_totals SET bids = bids - OLD.bids + NEW.bids, made = made - OLD.made + NEW.made
    WHERE club_id = NEW.club_id AND player = NEW.player AND band = NEW.band;
    RETURN NULL;
END $$;
CREATE TRIGGER bid_totals_change AFTER UPDATE ON session_bids FOR EACH ROW
EXECUTE FUNCTION bid_totals_change();
