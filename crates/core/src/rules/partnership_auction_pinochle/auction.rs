//! The optional `auction` of a deal, checked against the bidding rules (rules §1.6:
//! BIC-PAP, S003 Aeroplane rules 1–2) and the deal's contract.
//!
//! ```json
//! "auction": [["N", 250], ["E", "pass"], ["S", 260], ["W", "pass"], ["N", 270], ["S", "pass"]]
//! ```
//!
//! Calls are `[player, bid]` or `[player, "pass"]` (session-format "Precise readings"). The
//! dealer's left calls first, clockwise, skipping passed players (S003; BIC-PAP); it ends
//! when all four passed or three after a bid. Trailing passes may be left out.

use serde_json::Value;

use super::agreements::Agreements;
use crate::rules::partnership::{PLAYERS, Seating};
use crate::rules::{Field, RuleError};

/// What the deal says the auction gave: the winning bidder and bid, or nobody (all passed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending<'a> {
    /// `bidder` won the auction with `bid` points.
    Won {
        /// The player named `bidder` on the deal.
        bidder: &'a str,
        /// The deal's `bid`, in points.
        bid: i64,
    },
    /// All four passed.
    AllPassed,
}

/// One call, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Call {
    Bid(i64),
    Pass,
}

fn read_call(value: &Value, seating: &Seating, field: &Field) -> Result<(usize, Call), RuleError> {
    let shape = || {
        RuleError::new(
            field,
            "write each call as [player, bid] or [player, \"pass\"], like [\"N\", 250]",
        )
    };
    let pair = value
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(shape)?;
    let (Some(who), Some(what)) = (pair.first(), pair.get(1)) else {
        return Err(shape());
    };
    let name = who.as_str().ok_or_else(shape)?;
    let seat = seating
        .seat_of(name)
        .ok_or_else(|| RuleError::new(field, format!("{name} is not seated at this table")))?;
    let call = match what {
        Value::String(s) if s == "pass" => Call::Pass,
        Value::Number(n) => Call::Bid(n.as_i64().ok_or_else(|| {
            RuleError::new(field, format!("{n} is not a whole number of points"))
        })?),
        _ => return Err(shape()),
    };
    Ok((seat, call))
}

/// Checks `calls` for a deal dealt by seated `dealer` that ended in `result`. Errors name
/// the call (`auction[4]`), or `auction` for a mismatch with the deal:
/// * a malformed call or an unseated caller;
/// * a call out of turn or after the end;
/// * a bid not in tens, below the minimum, or not above the last (BIC-PAP; S003 rule 2);
/// * a bid after passing (BIC-PAP);
/// * with Aeroplane, a third bid from one player (S003 rule 1);
/// * a last bid other than the deal's contract, or bids disagreeing with all passed.
pub fn check(
    calls: &[Value],
    dealer: &str,
    seating: &Seating,
    agreements: &Agreements,
    result: Ending<'_>,
) -> Result<(), RuleError> {
    let mut auction = Auction {
        seating,
        passed: [false; PLAYERS],
        bids: [0usize; PLAYERS],
        high: None,
        turn: seating.seat_of(dealer).map_or(0, |d| (d + 1) % PLAYERS),
    };
    for (i, value) in calls.iter().enumerate() {
        let field = Field::name("auction").index(i);
        let (seat, call) = read_call(value, seating, &field)?;
        auction.not_over(&field)?;
        auction.in_turn(seat, &field)?;
        match call {
            Call::Pass => {
                if let Some(p) = auction.passed.get_mut(seat) {
                    *p = true;
                }
            }
            Call::Bid(bid) => auction.bid(seat, bid, agreements, &field)?,
        }
        auction.turn = (seat + 1) % PLAYERS;
    }
    auction.ends_in(result)
}

/// An auction under way: passes, bids per player, the high bid and the turn.
struct Auction<'s> {
    seating: &'s Seating,
    passed: [bool; PLAYERS],
    bids: [usize; PLAYERS],
    high: Option<(usize, i64)>,
    turn: usize,
}

impl Auction<'_> {
    /// The name of the player in `seat`.
    fn name(&self, seat: usize) -> &str {
        self.seating.players().get(seat).map_or("?", String::as_str)
    }

    /// Refuses a call once all four passed, or three after a bid (rules §1.6).
    fn not_over(&self, field: &Field) -> Result<(), RuleError> {
        let still_in = self.passed.iter().filter(|p| !**p).count();
        if still_in == 0 || (self.high.is_some() && still_in == 1) {
            return Err(RuleError::new(
                field,
                match self.high {
                    Some((s, b)) => format!(
                        "the auction was over: the other three had passed and {} had the bid at {b}",
                        self.name(s)
                    ),
                    None => "the auction was over: all four had passed".to_string(),
                },
            )
            .rule("rules §1.6"));
        }
        Ok(())
    }

    /// Refuses a call after passing (final, BIC-PAP) or out of turn (rules §1.6).
    fn in_turn(&self, seat: usize, field: &Field) -> Result<(), RuleError> {
        // The next player still in, clockwise from `turn`.
        let due = (0..PLAYERS)
            .map(|k| (self.turn + k) % PLAYERS)
            .find(|s| self.passed.get(*s) == Some(&false))
            .unwrap_or(self.turn);
        if self.passed.get(seat) == Some(&true) {
            return Err(RuleError::new(
                field,
                format!("{} already passed, and a pass is final", self.name(seat)),
            )
            .rule("rules §1.6, BIC-PAP"));
        }
        if seat != due {
            return Err(RuleError::new(
                field,
                format!(
                    "it was {}'s turn to call: the dealer's left calls first and the turn goes clockwise, skipping players who passed",
                    self.name(due)
                ),
            )
            .rule("rules §1.6"));
        }
        Ok(())
    }

    /// Takes a bid: in tens, at least the minimum, above the last (rules §0.3, §1.6; S003).
    fn bid(
        &mut self,
        seat: usize,
        bid: i64,
        agreements: &Agreements,
        field: &Field,
    ) -> Result<(), RuleError> {
        check_called_bid(bid, agreements, field)?;
        if let Some((s, h)) = self.high
            && bid <= h
        {
            return Err(RuleError::new(
                field,
                format!(
                    "{bid} does not beat {}'s {h}: each bid must be higher, by 10 or more",
                    self.name(s)
                ),
            )
            .rule("rules §1.6"));
        }
        let made = self.bids.get(seat).copied().unwrap_or(0);
        if let Some(limit) = agreements.bids_each()
            && made >= limit
        {
            return Err(RuleError::new(
                field,
                format!(
                    "{} already bid {limit} times, and in Aeroplane each player may bid only twice",
                    self.name(seat)
                ),
            )
            .rule("rules §1.6, S003 rule 1"));
        }
        if let Some(b) = self.bids.get_mut(seat) {
            *b = made + 1;
        }
        self.high = Some((seat, bid));
        Ok(())
    }

    /// Refuses an auction not ending as the deal did (rules §1.6), naming `auction`.
    fn ends_in(&self, result: Ending<'_>) -> Result<(), RuleError> {
        let refuse = |message: String| Err(RuleError::new("auction", message).rule("rules §1.6"));
        match (self.high, result) {
            (Some((seat, high_bid)), Ending::Won { bidder, bid }) => {
                if self.name(seat) != bidder || high_bid != bid {
                    return refuse(format!(
                        "the auction ends with {} bidding {high_bid}, but the deal says {bidder} bid {bid}",
                        self.name(seat)
                    ));
                }
                Ok(())
            }
            (None, Ending::Won { bidder, bid }) => refuse(format!(
                "nobody bid in this auction, but the deal says {bidder} bid {bid}; if all four passed, record the deal as all passed"
            )),
            (Some((seat, b)), Ending::AllPassed) => refuse(format!(
                "{} bid {b} in this auction, so not all four passed",
                self.name(seat)
            )),
            (None, Ending::AllPassed) => Ok(()),
        }
    }
}

/// A called bid: in tens (rules §0.3), at least the minimum (rules §1.6). Errors name `field`.
fn check_called_bid(bid: i64, agreements: &Agreements, field: &Field) -> Result<(), RuleError> {
    if bid % 10 != 0 {
        return Err(
            RuleError::new(field, format!("{bid} is not a bid: bids go up in tens"))
                .rule("rules §0.3, §1.6"),
        );
    }
    if bid < agreements.min_bid {
        return Err(RuleError::new(
            field,
            format!("{bid} is below the minimum bid {}", agreements.min_bid),
        )
        .rule("rules §1.6"));
    }
    Ok(())
}

/// The auction of the golden case AE-01-c as a hand writes it (S003 rule 1): N 250, S 260,
/// N 270, and everybody else passes; N's two bids are within Aeroplane's two each.
#[cfg(test)]
pub(crate) fn golden_calls() -> Value {
    serde_json::json!([
        ["N", 250],
        ["E", "pass"],
        ["S", 260],
        ["W", "pass"],
        ["N", 270],
        ["S", "pass"]
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn agreements(aeroplane: bool) -> Agreements {
        Agreements::read(json!({ "aeroplane": aeroplane }).as_object().unwrap()).unwrap()
    }

    /// Checks `calls` dealt by W (so N calls first) that N won at `bid`.
    fn won_by(aeroplane: bool, calls: Value, bidder: &str, bid: i64) -> Result<(), RuleError> {
        check(
            calls.as_array().unwrap(),
            "W",
            &seating(),
            &agreements(aeroplane),
            Ending::Won { bidder, bid },
        )
    }

    #[test]
    fn a_full_aeroplane_auction_is_accepted() {
        let calls = golden_calls();
        assert_eq!(won_by(true, calls.clone(), "N", 270), Ok(()));
        // The passes after the last bid may be left out.
        let short = json!([
            ["N", 250],
            ["E", "pass"],
            ["S", 260],
            ["W", "pass"],
            ["N", 270]
        ]);
        assert_eq!(won_by(true, short, "N", 270), Ok(()));
        // But it must end in the deal's contract.
        assert_eq!(
            won_by(true, calls.clone(), "N", 280).unwrap_err().field,
            "auction"
        );
        assert_eq!(won_by(true, calls, "S", 270).unwrap_err().field, "auction");
    }

    #[test]
    fn aeroplane_allows_two_bids_each_and_the_base_game_more() {
        // N bids 250, 270, 290: a third bid, refused with Aeroplane (S003 rule 1), fine in
        // the base game (BIC-PAP has no limit).
        let calls = json!([
            ["N", 250],
            ["E", "pass"],
            ["S", 260],
            ["W", "pass"],
            ["N", 270],
            ["S", 280],
            ["N", 290],
            ["S", "pass"]
        ]);
        let e = won_by(true, calls.clone(), "N", 290).unwrap_err();
        assert_eq!(e.field, "auction[6]");
        assert!(e.message.contains("only twice"), "{}", e.message);
        assert_eq!(won_by(false, calls, "N", 290), Ok(()));
    }

    #[test]
    fn bids_start_at_the_minimum_go_up_by_tens_and_a_pass_is_final() {
        let field =
            |aeroplane, calls: Value, bid| won_by(aeroplane, calls, "N", bid).unwrap_err().field;
        // Aeroplane minimum 250 (S003 rule 2); base minimum 100 (BIC-PAP).
        assert_eq!(field(true, json!([["N", 240]]), 240), "auction[0]");
        assert_eq!(won_by(false, json!([["N", 100]]), "N", 100), Ok(()));
        assert_eq!(field(false, json!([["N", 90]]), 90), "auction[0]");
        // Multiples of 10, each higher than the last.
        assert_eq!(field(false, json!([["N", 105]]), 105), "auction[0]");
        assert_eq!(
            field(false, json!([["N", 200], ["E", 200]]), 200),
            "auction[1]"
        );
        assert_eq!(
            field(false, json!([["N", 200], ["E", 190]]), 200),
            "auction[1]"
        );
        // E passes and may not come back in.
        let e = won_by(
            false,
            json!([
                ["N", 200],
                ["E", "pass"],
                ["S", "pass"],
                ["W", 210],
                ["N", 220],
                ["E", 230]
            ]),
            "E",
            230,
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[5]");
        assert!(e.message.contains("a pass is final"), "{}", e.message);
    }

    #[test]
    fn calls_go_clockwise_from_the_dealers_left() {
        // W dealt, so N calls first; then E.
        let e = won_by(false, json!([["E", 200]]), "E", 200).unwrap_err();
        assert_eq!(e.field, "auction[0]");
        assert!(e.message.contains("N's turn"), "{}", e.message);
        let e = won_by(false, json!([["N", 200], ["S", 210]]), "S", 210).unwrap_err();
        assert!(e.message.contains("E's turn"), "{}", e.message);
        // Once three have passed after a bid, nobody calls again.
        let e = won_by(
            false,
            json!([
                ["N", 200],
                ["E", "pass"],
                ["S", "pass"],
                ["W", "pass"],
                ["N", 210]
            ]),
            "N",
            210,
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[4]");
        assert!(e.message.contains("over"), "{}", e.message);
    }

    #[test]
    fn all_passed_deals_have_no_bid_in_their_auction() {
        let s = seating();
        let a = agreements(false);
        let four = json!([["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", "pass"]]);
        let calls = four.as_array().unwrap();
        assert_eq!(check(calls, "W", &s, &a, Ending::AllPassed), Ok(()));
        let e = check(
            calls,
            "W",
            &s,
            &a,
            Ending::Won {
                bidder: "N",
                bid: 100,
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "auction");
        let bid = json!([["N", 100], ["E", "pass"], ["S", "pass"], ["W", "pass"]]);
        let e = check(bid.as_array().unwrap(), "W", &s, &a, Ending::AllPassed).unwrap_err();
        assert_eq!(e.field, "auction");
        // A fifth call after four passes is refused.
        let five = json!([
            ["N", "pass"],
            ["E", "pass"],
            ["S", "pass"],
            ["W", "pass"],
            ["N", 100]
        ]);
        let e = check(five.as_array().unwrap(), "W", &s, &a, Ending::AllPassed).unwrap_err();
        assert_eq!(e.field, "auction[4]");
    }

    #[test]
    fn malformed_calls_are_named() {
        let field = |calls: Value| won_by(false, calls, "N", 200).unwrap_err().field;
        assert_eq!(field(json!([["N"]])), "auction[0]");
        assert_eq!(field(json!([["N", "200"]])), "auction[0]");
        assert_eq!(field(json!([["Zed", 200]])), "auction[0]");
        assert_eq!(field(json!([["N", 200.5]])), "auction[0]");
        assert_eq!(field(json!([{"N": 200}])), "auction[0]");
    }
}
