-- A club session's history facts change by each event's own difference (issue 21): a
-- player's result row and a band's row are updated in place instead of deleted and
-- inserted again, so the club totals follow an update too. Only the counters change in
-- an update (the session, club, player, game and band of a row never do).
CREATE TRIGGER player_totals_change AFTER UPDATE ON session_results
BEGIN
    UPDATE player_totals SET
        net_cents = net_cents - OLD.net_cents + NEW.net_cents,
        hands_bid = hands_bid - OLD.hands_bid + NEW.hands_bid,
        hands_made = hands_made - OLD.hands_made + NEW.hands_made,
        hands_set = hands_set - OLD.hands_set + NEW.hands_set,
        games_won = games_won - OLD.games_won + NEW.games_won,
        kitties_taken = kitties_taken - OLD.kitties_taken + NEW.kitties_taken
    WHERE club_id = NEW.club_id AND player = NEW.player AND game = NEW.game;
END;

CREATE TRIGGER bid_totals_change AFTER UPDATE ON session_bids
BEGIN
    UPDATE bid_totals SET bids = bids - OLD.bids + NEW.bids, made = made - OLD.made + NEW.made
    WHERE club_id = NEW.club_id AND player = NEW.player AND band = NEW.band;
END;
