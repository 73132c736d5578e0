//! The auction of a Contract Pinochle deal, checked call by call when recorded (rules §1.8,
//! S003; §3 item 28): dealer first, turn to the left; a bid is points and a suit ("200
//! spades"), at least 100, in tens, higher than the last whatever the suits; a passer may
//! come back in; double only an opponent's bid, redouble only an opponent's double; three
//! passes after a call end it, four with no bid throw the deal in.

use super::hand::{Doubled, MAX_BID, MIN_BID};
use crate::rules::partnership::{PLAYERS, Seating, Side};
use crate::rules::{Field, RuleError, Suit};

/// One call as written: `"200 spades"`, `"pass"`, `"double"`, `"redouble"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// No call this turn; a player who passed may call again later (S003).
    Pass,
    /// A bid of `points` with `trump`.
    Bid {
        /// The bid, in points.
        points: i64,
        /// The suit named with it.
        trump: Suit,
    },
    /// Doubles the opponents' bid.
    Double,
    /// Redoubles the opponents' double.
    Redouble,
}

impl Call {
    /// Reads a call (suit as in documents, `"spades"`); `None` for anything else.
    pub fn parse(text: &str) -> Option<Call> {
        match text.trim() {
            "pass" => return Some(Call::Pass),
            "double" => return Some(Call::Double),
            "redouble" => return Some(Call::Redouble),
            _ => {}
        }
        let mut words = text.split_whitespace();
        let points = words.next()?.parse::<i64>().ok()?;
        let suit = words.next()?;
        if words.next().is_some() {
            return None;
        }
        let trump = Suit::ALL.into_iter().find(|s| s.name() == suit)?;
        Some(Call::Bid { points, trump })
    }
}

/// The contract an auction ended in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Final {
    /// Who made the last bid.
    pub bidder: String,
    /// The last bid, in points.
    pub bid: i64,
    /// Its suit.
    pub trump: Suit,
    /// Whether that bid stands doubled or redoubled.
    pub doubled: Doubled,
}

/// How a complete auction ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// All four passed: a new deal (rules §1.8).
    AllPassed,
    /// Three passes after the last bid, double or redouble.
    Contract(Final),
}

/// The highest bid so far and what stands on it.
struct Standing {
    bidder: String,
    side: Side,
    bid: i64,
    trump: Suit,
    doubled: Doubled,
    /// The side that doubled, while a double stands.
    doubler: Option<Side>,
}

/// Checks `calls` for a deal dealt by `dealer`. Errors name the call, or `auction`.
pub fn check(
    calls: &[(String, String)],
    dealer: &str,
    seating: &Seating,
    double_survives_overcall: bool,
) -> Result<Ended, RuleError> {
    let first = seating
        .seat_of(dealer)
        .ok_or_else(|| RuleError::new("dealer", format!("{dealer} is not seated")))?;
    let mut auction = Auction {
        high: None,
        passes: 0,
        ended: None,
        double_survives_overcall,
    };
    for (i, (player, text)) in calls.iter().enumerate() {
        let field = Field::name("auction").index(i);
        if auction.ended.is_some() {
            return Err(RuleError::new(
                field,
                format!(
                    "the auction was already over after call {i}: three passes in a row end it"
                ),
            )
            .rule("rules §1.8"));
        }
        let side = caller_in_turn(seating, first + i, player, &field)?;
        let call = Call::parse(text).ok_or_else(|| {
            RuleError::new(
                field.clone(),
                format!(
                    "\"{text}\" is not a call: write a bid such as \"200 spades\", or \"pass\", \"double\" or \"redouble\""
                ),
            )
        })?;
        auction.call(player, side, call, &field)?;
    }
    auction.ended.ok_or_else(|| {
        RuleError::new(
            "auction",
            "the auction is not over: it ends after three passes in a row (four when nobody bids)",
        )
        .rule("rules §1.8")
    })
}

/// The side of `player` making call `turn`: seated and in turn (rules §1.8).
fn caller_in_turn(
    seating: &Seating,
    turn: usize,
    player: &str,
    field: &Field,
) -> Result<Side, RuleError> {
    let side = seating
        .side_of(player)
        .ok_or_else(|| RuleError::new(field, format!("{player} is not seated at this table")))?;
    let due = seating
        .players()
        .get(turn % PLAYERS)
        .map_or("", String::as_str);
    if player != due {
        return Err(RuleError::new(
            field,
            format!(
                "it was {due}'s turn, not {player}'s: the dealer calls first and the turn passes to the left"
            ),
        )
        .rule("rules §1.8"));
    }
    Ok(side)
}

/// An auction under way: what stands, the passes since the last call, and how it ended.
struct Auction {
    high: Option<Standing>,
    passes: usize,
    ended: Option<Ended>,
    /// Rules §3 item 28, as agreed.
    double_survives_overcall: bool,
}

impl Auction {
    /// Takes `player`'s `call`, refusing what rules §1.8 forbids; errors name `field`.
    fn call(
        &mut self,
        player: &str,
        side: Side,
        call: Call,
        field: &Field,
    ) -> Result<(), RuleError> {
        match call {
            Call::Pass => {
                self.pass();
                return Ok(());
            }
            Call::Bid { points, trump } => self.bid(player, side, points, trump, field)?,
            Call::Double => self.double(player, side, field)?,
            Call::Redouble => self.redouble(player, side, field)?,
        }
        self.passes = 0;
        Ok(())
    }

    /// A pass: three after a call end the auction, four with no bid throw it in (rules §1.8).
    fn pass(&mut self) {
        self.passes += 1;
        if self.high.is_some() && self.passes == 3 {
            self.ended = self.high.as_ref().map(|h| {
                Ended::Contract(Final {
                    bidder: h.bidder.clone(),
                    bid: h.bid,
                    trump: h.trump,
                    doubled: h.doubled,
                })
            });
        } else if self.high.is_none() && self.passes == PLAYERS {
            self.ended = Some(Ended::AllPassed);
        }
    }

    /// A bid: by [`check_bid`], higher than the standing one whatever the suits (rules §1.8).
    fn bid(
        &mut self,
        player: &str,
        side: Side,
        points: i64,
        trump: Suit,
        field: &Field,
    ) -> Result<(), RuleError> {
        check_bid(points).map_err(|e| RuleError {
            field: field.clone(),
            ..e
        })?;
        if let Some(h) = &self.high
            && points <= h.bid
        {
            return Err(RuleError::new(
                field,
                format!(
                    "{player}'s {points} must be higher than {}'s {}: the suits rank equally, so a new bid is a higher number",
                    h.bidder, h.bid
                ),
            )
            .rule("rules §1.8"));
        }
        // A double survives only while the doublers are opponents (rules §1.8; §3 item 28).
        let (doubled, doubler) = match (&self.high, self.double_survives_overcall) {
            (Some(h), true) if h.doubler.is_some_and(|d| d != side) => (h.doubled, h.doubler),
            _ => (Doubled::No, None),
        };
        self.high = Some(Standing {
            bidder: player.to_string(),
            side,
            bid: points,
            trump,
            doubled,
            doubler,
        });
        Ok(())
    }

    /// A double: only of an opponent's bid, and only once (rules §1.8).
    fn double(&mut self, player: &str, side: Side, field: &Field) -> Result<(), RuleError> {
        let h = self.high.as_mut().ok_or_else(|| {
            RuleError::new(field, format!("{player} cannot double: nobody has bid yet"))
        })?;
        if h.side == side {
            return Err(RuleError::new(
                field,
                format!(
                    "{player} cannot double {}'s {}: a player doubles only an opponent's bid",
                    h.bidder, h.bid
                ),
            )
            .rule("rules §1.8"));
        }
        if h.doubled != Doubled::No {
            return Err(RuleError::new(
                field,
                format!("{}'s {} is already {}", h.bidder, h.bid, h.doubled.words()),
            ));
        }
        h.doubled = Doubled::Doubled;
        h.doubler = Some(side);
        Ok(())
    }

    /// A redouble: only of an opponent's double, and only once (rules §1.8).
    fn redouble(&mut self, player: &str, side: Side, field: &Field) -> Result<(), RuleError> {
        let h = self.high.as_mut().ok_or_else(|| {
            RuleError::new(
                field,
                format!("{player} cannot redouble: nobody has bid yet"),
            )
        })?;
        match (h.doubled, h.doubler) {
            (Doubled::No, _) | (_, None) => Err(RuleError::new(
                field,
                format!(
                    "{player} cannot redouble: {}'s {} is not doubled",
                    h.bidder, h.bid
                ),
            )
            .rule("rules §1.8")),
            (Doubled::Redoubled, _) => Err(RuleError::new(
                field,
                format!("{}'s {} is already redoubled", h.bidder, h.bid),
            )),
            (Doubled::Doubled, Some(doubler)) if doubler == side => Err(RuleError::new(
                field,
                format!(
                    "{player} cannot redouble his own side's double: a player redoubles only an opponent's double"
                ),
            )
            .rule("rules §1.8")),
            (Doubled::Doubled, Some(_)) => {
                h.doubled = Doubled::Redoubled;
                Ok(())
            }
        }
    }
}

/// A bid: [`MIN_BID`]–[`MAX_BID`] in tens (rules §1.8, §0.3). The error names `bid`.
pub fn check_bid(points: i64) -> Result<(), RuleError> {
    if points < MIN_BID {
        return Err(RuleError::new(
            "bid",
            format!("{points} is below the minimum bid {MIN_BID}"),
        )
        .rule("rules §1.8"));
    }
    if points % 10 != 0 {
        return Err(
            RuleError::new("bid", format!("{points} is not a bid: bids go up in tens"))
                .rule("rules §1.8, §0.3"),
        );
    }
    if points > MAX_BID {
        return Err(RuleError::new(
            "bid",
            format!("{points} is more than any deal can make (at most {MAX_BID})"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn calls(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect()
    }

    fn run(dealer: &str, list: &[(&str, &str)]) -> Result<Ended, RuleError> {
        check(&calls(list), dealer, &seating(), false)
    }

    fn contract(bidder: &str, bid: i64, trump: Suit, doubled: Doubled) -> Ended {
        Ended::Contract(Final {
            bidder: bidder.into(),
            bid,
            trump,
            doubled,
        })
    }

    #[test]
    fn calls_are_read_as_written() {
        assert_eq!(
            Call::parse("200 spades"),
            Some(Call::Bid {
                points: 200,
                trump: Suit::Spades
            })
        );
        assert_eq!(Call::parse("pass"), Some(Call::Pass));
        assert_eq!(Call::parse("redouble"), Some(Call::Redouble));
        assert_eq!(Call::parse("200"), None);
        assert_eq!(Call::parse("200 stars"), None);
        assert_eq!(Call::parse("200 spades now"), None);
        assert_eq!(Call::parse("two hundred spades"), None);
    }

    #[test]
    fn the_dealer_opens_and_three_passes_end_it() {
        // W deals and calls first; N re-enters after passing; three passes after S's 150.
        let end = run(
            "W",
            &[
                ("W", "100 clubs"),
                ("N", "pass"),
                ("E", "120 hearts"),
                ("S", "150 hearts"),
                ("W", "pass"),
                ("N", "pass"),
                ("E", "pass"),
            ],
        )
        .unwrap();
        assert_eq!(end, contract("S", 150, Suit::Hearts, Doubled::No));
        // A passed player may come back in (S003).
        let end = run(
            "N",
            &[
                ("N", "pass"),
                ("E", "100 spades"),
                ("S", "pass"),
                ("W", "pass"),
                ("N", "110 diamonds"),
                ("E", "pass"),
                ("S", "pass"),
                ("W", "pass"),
            ],
        )
        .unwrap();
        assert_eq!(end, contract("N", 110, Suit::Diamonds, Doubled::No));
    }

    #[test]
    fn four_passes_throw_the_deal_in_but_three_do_not() {
        let four = [("E", "pass"), ("S", "pass"), ("W", "pass"), ("N", "pass")];
        assert_eq!(run("E", &four).unwrap(), Ended::AllPassed);
        let e = run("E", &four[..3]).unwrap_err();
        assert_eq!(e.field, "auction");
        // The fourth player may still open after three passes.
        let end = run(
            "E",
            &[
                ("E", "pass"),
                ("S", "pass"),
                ("W", "pass"),
                ("N", "100 spades"),
                ("E", "pass"),
                ("S", "pass"),
                ("W", "pass"),
            ],
        )
        .unwrap();
        assert_eq!(end, contract("N", 100, Suit::Spades, Doubled::No));
    }

    #[test]
    fn turn_order_and_the_end_are_enforced() {
        let e = run("N", &[("E", "100 spades")]).unwrap_err();
        assert_eq!(e.field, "auction[0]");
        assert!(e.message.contains("N's turn"), "{}", e.message);
        let e = run("N", &[("N", "100 spades"), ("S", "pass")]).unwrap_err();
        assert_eq!(e.field, "auction[1]");
        let e = run("N", &[("N", "100 spades"), ("X", "pass")]).unwrap_err();
        assert_eq!(e.field, "auction[1]");
        let e = run(
            "N",
            &[
                ("N", "100 spades"),
                ("E", "pass"),
                ("S", "pass"),
                ("W", "pass"),
                ("N", "pass"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[4]");
        let e = run("N", &[("N", "100 spades"), ("E", "pass")]).unwrap_err();
        assert_eq!(e.field, "auction");
    }

    #[test]
    fn bids_rise_in_tens_from_100_whatever_the_suit() {
        let e = run("N", &[("N", "90 spades")]).unwrap_err();
        assert_eq!(e.field, "auction[0]");
        let e = run("N", &[("N", "105 spades")]).unwrap_err();
        assert_eq!(e.field, "auction[0]");
        // Same number in another suit is not higher: suits rank equally.
        let e = run("N", &[("N", "200 clubs"), ("E", "200 spades")]).unwrap_err();
        assert_eq!(e.field, "auction[1]");
        assert!(e.message.contains("higher"), "{}", e.message);
        let e = run("N", &[("N", "200 clubs"), ("E", "nonsense")]).unwrap_err();
        assert_eq!(e.field, "auction[1]");
    }

    #[test]
    fn double_only_an_opponents_bid_and_redouble_only_an_opponents_double() {
        // N bids, E doubles, S redoubles: a redoubled contract for N.
        let end = run(
            "N",
            &[
                ("N", "200 spades"),
                ("E", "double"),
                ("S", "redouble"),
                ("W", "pass"),
                ("N", "pass"),
                ("E", "pass"),
            ],
        )
        .unwrap();
        assert_eq!(end, contract("N", 200, Suit::Spades, Doubled::Redoubled));
        // S cannot double his partner N.
        let e = run("N", &[("N", "200 spades"), ("E", "pass"), ("S", "double")]).unwrap_err();
        assert_eq!(e.field, "auction[2]");
        // W cannot redouble his partner E's double.
        let e = run(
            "N",
            &[
                ("N", "200 spades"),
                ("E", "double"),
                ("S", "pass"),
                ("W", "redouble"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[3]");
        // Nothing to double or redouble yet; no second double.
        assert_eq!(
            run("N", &[("N", "double")]).unwrap_err().field,
            "auction[0]"
        );
        let e = run("N", &[("N", "200 spades"), ("E", "redouble")]).unwrap_err();
        assert_eq!(e.field, "auction[1]");
        let e = run(
            "N",
            &[
                ("N", "200 spades"),
                ("E", "double"),
                ("S", "pass"),
                ("W", "double"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[3]");
        let e = run(
            "N",
            &[
                ("N", "200 spades"),
                ("E", "double"),
                ("S", "redouble"),
                ("W", "pass"),
                ("N", "redouble"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.field, "auction[4]");
    }

    #[test]
    fn an_overcall_cancels_a_double_unless_agreed_otherwise() {
        // E doubles N's 200; S overcalls with 210 and it is the final contract.
        let list = [
            ("N", "200 spades"),
            ("E", "double"),
            ("S", "210 hearts"),
            ("W", "pass"),
            ("N", "pass"),
            ("E", "pass"),
        ];
        assert_eq!(
            check(&calls(&list), "N", &seating(), false).unwrap(),
            contract("S", 210, Suit::Hearts, Doubled::No)
        );
        assert_eq!(
            check(&calls(&list), "N", &seating(), true).unwrap(),
            contract("S", 210, Suit::Hearts, Doubled::Doubled)
        );
        // Once cancelled, the new bid may be doubled afresh.
        let again = [
            ("N", "200 spades"),
            ("E", "double"),
            ("S", "210 hearts"),
            ("W", "double"),
            ("N", "pass"),
            ("E", "pass"),
            ("S", "pass"),
        ];
        assert_eq!(
            run("N", &again).unwrap(),
            contract("S", 210, Suit::Hearts, Doubled::Doubled)
        );
        assert_eq!(
            check(&calls(&again), "N", &seating(), true)
                .unwrap_err()
                .field,
            "auction[3]"
        );
    }
}
