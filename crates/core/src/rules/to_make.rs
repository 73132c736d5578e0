//! What the bidder needs to make the contract, for the hand form's preview ("Vincenzo
//! needs 92 in counters to make 400"), from the form as typed so far. Pure.
//!
//! Each game with a contract registers its sentence in
//! [`GameInfo::to_make`](super::GameInfo::to_make), built from the pieces here.

use std::collections::HashMap;

use super::partnership::Side;

/// The trick points of one deal in the pinochle games that count 250 (rules §1.1, §1.5–1.7).
const DECK_POINTS: i64 = 250;

/// What the bidder of game `game` needs ([`GameInfo::to_make`](super::GameInfo::to_make));
/// `None` without a contract or bidder and bid.
pub fn to_make(game: &str, values: &HashMap<String, String>, seated: &[String]) -> Option<String> {
    (super::game(game)?.to_make?)(values, seated)
}

/// The form's field `name` as typed, trimmed; `None` when missing or empty.
pub fn given<'a>(values: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    values.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// The form's field `name` as a whole number; `None` when missing, empty or not a number.
pub fn number(values: &HashMap<String, String>, name: &str) -> Option<i64> {
    given(values, name).and_then(|v| v.parse::<i64>().ok())
}

/// The contract as typed: field `bidder` and `bid`; `None` if all passed or incomplete.
pub fn contract<'a>(values: &'a HashMap<String, String>, bidder: &str) -> Option<(&'a str, i64)> {
    if given(values, "all_passed") == Some("true") {
        return None;
    }
    let bidder = given(values, bidder)?;
    let bid = number(values, "bid").filter(|b| *b > 0)?;
    Some((bidder, bid))
}

/// The partnership bidding games (rules §1.6, §1.7): side meld and tricks must reach the
/// bid ([`ToMakeFn`](super::game::ToMakeFn)).
pub fn side_meld_and_tricks(values: &HashMap<String, String>, seated: &[String]) -> Option<String> {
    let (bidder, bid) = contract(values, "bidder")?;
    let side = side_of(seated, bidder)?;
    let meld = number(values, &format!("{}.meld", side.name()));
    let who = members(seated, side);
    let words = in_play(&who, "need", "tricks", bid, meld);
    Some(match meld {
        Some(m) if m > 0 => format!("{words}; their meld counts once they take a trick"),
        _ => words,
    })
}

/// "Ann needs 92 in counters to make 400 (meld 308)", or that the meld makes it, or that
/// 250 trick points cannot.
pub fn in_play(who: &str, verb: &str, play: &str, bid: i64, meld: Option<i64>) -> String {
    let Some(meld) = meld.filter(|m| *m >= 0) else {
        return format!("{who} {verb} {bid} in meld and {play} to make {bid}");
    };
    let need = bid.saturating_sub(meld);
    if need <= 0 {
        return format!("{who}: the meld of {meld} makes {bid} by itself");
    }
    if need > DECK_POINTS {
        return format!(
            "{who} cannot make {bid}: a meld of {meld} leaves {need} to take in {play}, \
             more than the {DECK_POINTS} in play"
        );
    }
    format!("{who} {verb} {need} in {play} to make {bid} (meld {meld})")
}

/// The side of `name` among four `seated` players, if seated.
pub fn side_of(seated: &[String], name: &str) -> Option<Side> {
    (seated.len() == 4)
        .then(|| seated.iter().position(|p| p == name))
        .flatten()
        .map(Side::of_seat)
}

/// "Ann & Cy (NS)": the two players of `side` among `seated`.
pub fn members(seated: &[String], side: Side) -> String {
    let names: Vec<&str> = seated
        .iter()
        .enumerate()
        .filter(|(i, _)| Side::of_seat(*i) == side)
        .map(|(_, p)| p.as_str())
        .collect();
    format!("{} ({})", names.join(" & "), side.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn four() -> Vec<String> {
        ["Ann", "Bob", "Cy", "Dee"].map(String::from).to_vec()
    }

    #[test]
    fn auction_pinochle_counts_what_the_meld_leaves_for_the_counters() {
        let three = &four()[..3];
        // 400 − 308 = 92 to take in counters (rules §1.1: meld + count ≥ bid).
        let f = form(&[("bidder", "Ann"), ("bid", "400"), ("meld", "308")]);
        assert_eq!(
            to_make("auction_pinochle", &f, three).as_deref(),
            Some("Ann needs 92 in counters to make 400 (meld 308)")
        );
        let f = form(&[("bidder", "Ann"), ("bid", "400"), ("meld", "")]);
        assert_eq!(
            to_make("auction_pinochle", &f, three).as_deref(),
            Some("Ann needs 400 in meld and counters to make 400")
        );
        // 500 − 200 = 300 > 250: no play makes it.
        let f = form(&[("bidder", "Ann"), ("bid", "500"), ("meld", "200")]);
        assert_eq!(
            to_make("auction_pinochle", &f, three).as_deref(),
            Some(
                "Ann cannot make 500: a meld of 200 leaves 300 to take in counters, more than the 250 in play"
            )
        );
        let f = form(&[("bidder", "Ann"), ("bid", "300"), ("meld", "310")]);
        assert_eq!(
            to_make("auction_pinochle", &f, three).as_deref(),
            Some("Ann: the meld of 310 makes 300 by itself")
        );
    }

    #[test]
    fn the_partnership_games_name_the_bidding_side() {
        // Bob sits second: EW with Dee. 250 − 120 = 130 in tricks (rules §1.7).
        let f = form(&[
            ("bidder", "Bob"),
            ("bid", "250"),
            ("EW.meld", "120"),
            ("NS.meld", "40"),
        ]);
        assert_eq!(
            to_make("check_pinochle", &f, &four()).as_deref(),
            Some(
                "Bob & Dee (EW) need 130 in tricks to make 250 (meld 120); their meld counts once they take a trick"
            )
        );
        // Contract Pinochle, redoubled: 4 × 300 = 1,200 either way (rules §1.8).
        let f = form(&[("bidder", "Cy"), ("bid", "300"), ("doubled", "redoubled")]);
        assert_eq!(
            to_make("contract_pinochle", &f, &four()).as_deref(),
            Some(
                "Ann & Cy (NS) need 300 in meld and tricks to make 300: made, they score 1,200; set, their opponents score 1,200"
            )
        );
    }

    #[test]
    fn pitch_counts_points_and_nothing_is_needed_without_a_contract() {
        let f = form(&[("pitcher", "Cy"), ("bid", "3")]);
        assert_eq!(
            to_make("auction_pitch", &f, &four()).as_deref(),
            Some(
                "Cy needs 3 of the 4 points (high, low, jack, game) to make 3; short of that, Cy is set back 3"
            )
        );
        let passed = form(&[("bidder", "Ann"), ("bid", "250"), ("all_passed", "true")]);
        assert_eq!(to_make("auction_pinochle", &passed, &four()), None);
        let no_bid = form(&[("bidder", "Ann"), ("bid", "")]);
        assert_eq!(to_make("auction_pinochle", &no_bid, &four()), None);
        let f = form(&[("bidder", "Ann"), ("bid", "250")]);
        assert_eq!(to_make("two_handed_pinochle", &f, &four()), None);
        assert_eq!(to_make("poker", &f, &four()), None);
    }
}
