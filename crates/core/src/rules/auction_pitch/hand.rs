//! One Auction Pitch deal as entered, read and checked (rules §1.4; session-format).

use serde::{Deserialize, Serialize};

use crate::rules::hand_form::is_false;
use crate::rules::typed::no_contract;
use crate::rules::{RuleError, Table};

/// One of the four points, in count order for rule 3 (rules §1.4; S001, WKC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// The highest trump in play, to the player who was dealt it.
    High,
    /// The lowest trump in play, to the player who was dealt it (Scarne).
    Low,
    /// The jack of trumps, to the player who wins it in a trick; nobody if not dealt.
    Jack,
    /// Most game count in tricks (A 4, K 3, Q 2, J 1, 10 10); nobody on a tie (FOSTER).
    Game,
}

impl Point {
    /// The counting order: High, Low, Jack, Game.
    pub const ORDER: [Point; 4] = [Point::High, Point::Low, Point::Jack, Point::Game];

    /// The key in `points` and in `decided_by` (`"high"`).
    pub fn id(self) -> &'static str {
        match self {
            Point::High => "high",
            Point::Low => "low",
            Point::Jack => "jack",
            Point::Game => "game",
        }
    }

    /// The word on the score sheet (`"High"`).
    pub fn word(self) -> &'static str {
        match self {
            Point::High => "High",
            Point::Low => "Low",
            Point::Jack => "Jack",
            Point::Game => "Game",
        }
    }
}

/// Who took each point of a played hand; `None` is nobody (the jack not dealt, Game tied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Points {
    /// High: never nobody in a played hand.
    pub high: Option<String>,
    /// Low: never nobody in a played hand; may be the same player as High.
    pub low: Option<String>,
    /// Jack: nobody when the jack of trumps was not dealt.
    pub jack: Option<String>,
    /// Game: nobody on a tie for game count (FOSTER).
    pub game: Option<String>,
}

impl Points {
    /// Who took `point`, if anybody.
    pub fn taker(&self, point: Point) -> Option<&str> {
        match point {
            Point::High => self.high.as_deref(),
            Point::Low => self.low.as_deref(),
            Point::Jack => self.jack.as_deref(),
            Point::Game => self.game.as_deref(),
        }
    }

    /// The points `player` took, in counting order.
    pub fn taken_by(&self, player: &str) -> Vec<Point> {
        Point::ORDER
            .into_iter()
            .filter(|p| self.taker(*p) == Some(player))
            .collect()
    }
}

/// A played deal, checked: everyone named is seated, the bid is 1–4, High and Low taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contract {
    /// Who dealt.
    pub dealer: String,
    /// The highest bidder, who led the first trick and so named trumps.
    pub pitcher: String,
    /// The final bid, in points: 1, 2, 3 or 4 (4 = slam, smudge, shoot the moon).
    pub bid: i64,
    /// Who took High, Low, Jack and Game.
    pub points: Points,
    /// The player who revoked (failed to follow suit when able), if any (S001 Revokes).
    pub revoke_by: Option<String>,
}

/// One deal: passed out, or played under a bid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deal {
    /// Everyone passed: a dead hand, no score, the same dealer deals again (rules §1.4, S001).
    AllPassed {
        /// Who dealt, and deals again.
        dealer: String,
    },
    /// A bid was won and the hand played.
    Played(Contract),
}

/// The highest bid: 4, "slam, smudge, or shoot the moon" (S001).
pub const MAX_BID: i64 = 4;

/// Who took each point as written; `null` is nobody (only Jack and Game may be).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenPoints {
    /// Who took High (the highest trump out).
    #[serde(default)]
    pub high: Option<String>,
    /// Who took Low (the lowest trump out).
    #[serde(default)]
    pub low: Option<String>,
    /// Who took the jack of trumps; `None` when it was not dealt.
    #[serde(default)]
    pub jack: Option<String>,
    /// Who took Game (most counting cards); `None` when tied.
    #[serde(default)]
    pub game: Option<String>,
}

/// A `hand` event as written (session-format `auction_pitch`); `bid` is 1–4 (4 the slam).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt.
    pub dealer: String,
    /// Every player passed: a dead deal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_passed: bool,
    /// Who won the bid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pitcher: Option<String>,
    /// The pitcher's bid, 1–4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<i64>,
    /// Who took each point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<WrittenPoints>,
    /// Who revoked, if anyone did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoke_by: Option<String>,
}

fn seated(table: &Table, field: &str, name: &str) -> Result<(), RuleError> {
    if table.is_seated(name) {
        Ok(())
    } else {
        Err(RuleError::new(
            field,
            format!("{name} is not seated at this table"),
        ))
    }
}

/// Checks a `hand` as written (session-format). Errors name the field: a person not seated; `bid`
/// missing or outside 1–4; `points.high`/`points.low` nobody when played; contract fields when all
/// passed.
pub fn check(w: WrittenHand, table: &Table) -> Result<Deal, RuleError> {
    seated(table, "dealer", &w.dealer)?;
    if w.all_passed {
        let given = [
            ("pitcher", w.pitcher.is_some()),
            ("bid", w.bid.is_some()),
            ("points", w.points.is_some()),
            ("revoke_by", w.revoke_by.is_some()),
        ];
        no_contract(
            &given,
            "a deal where all passed is dead and has no pitcher, bid or points: clear them, or enter the hand as played",
            Some("rules §1.4"),
        )?;
        return Ok(Deal::AllPassed { dealer: w.dealer });
    }
    let pitcher = w.pitcher.ok_or_else(|| {
        RuleError::new(
            "pitcher",
            "Who won the bid? If everybody passed, use the All passed button",
        )
        .rule("rules §1.4")
    })?;
    seated(table, "pitcher", &pitcher)?;
    let bid = w.bid.ok_or_else(|| {
        RuleError::new("bid", "the pitcher's final bid, 1 to 4, is required").rule("rules §1.4")
    })?;
    if !(1..=MAX_BID).contains(&bid) {
        return Err(RuleError::new(
            "bid",
            format!("{bid} is not a bid: Auction Pitch bids are 1, 2, 3 or 4"),
        )
        .rule("rules §1.4, S001"));
    }
    let points = taken(w.points, table)?;
    if let Some(who) = &w.revoke_by {
        seated(table, "revoke_by", who)?;
    }
    Ok(Deal::Played(Contract {
        dealer: w.dealer,
        pitcher,
        bid,
        points,
        revoke_by: w.revoke_by,
    }))
}

/// Who took each point: seated, High and Low somebody (rules §1.4). Errors name `points.*`.
fn taken(written: Option<WrittenPoints>, table: &Table) -> Result<Points, RuleError> {
    let p = written.ok_or_else(|| {
        RuleError::new(
            "points",
            "Who took high, low, jack and game? Choose nobody where nobody did",
        )
        .rule("rules §1.4")
    })?;
    let points = Points {
        high: p.high,
        low: p.low,
        jack: p.jack,
        game: p.game,
    };
    for point in Point::ORDER {
        let field = format!("points.{}", point.id());
        match points.taker(point) {
            Some(name) => seated(table, &field, name)?,
            None if matches!(point, Point::High | Point::Low) => {
                return Err(RuleError::new(
                    field,
                    format!(
                        "nobody cannot take {} in a played hand: the pitcher leads a trump, so someone held the {} trump in play",
                        point.word(),
                        if point == Point::High {
                            "highest"
                        } else {
                            "lowest"
                        }
                    ),
                )
                .rule("rules §1.4"));
            }
            None => {}
        }
    }
    Ok(points)
}

/// A hand for tests, dealt by D: `takers` is "high low jack game", `-` for nobody.
#[cfg(test)]
pub(crate) fn test_contract(
    pitcher: &str,
    bid: i64,
    takers: &str,
    revoke_by: Option<&str>,
) -> Contract {
    let t: Vec<&str> = takers.split(' ').collect();
    let name = |s: &str| (s != "-").then(|| s.to_string());
    Contract {
        dealer: "D".into(),
        pitcher: pitcher.into(),
        bid,
        points: Points {
            high: name(t[0]),
            low: name(t[1]),
            jack: name(t[2]),
            game: name(t[3]),
        },
        revoke_by: revoke_by.map(String::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The hand `event` as a document writes it, read and checked.
    fn read(
        event: &serde_json::Map<String, serde_json::Value>,
        table: &Table,
    ) -> Result<Deal, RuleError> {
        check(crate::rules::fields::read_event(event)?, table)
    }
    use serde_json::json;

    fn table() -> Table {
        Table::new(&["A", "B", "C", "D"].map(String::from))
    }

    fn hand(v: Value) -> Result<Deal, RuleError> {
        read(v.as_object().unwrap(), &table())
    }

    fn played(extra: Value) -> Value {
        let mut h = json!({
            "type": "hand", "dealer": "D", "pitcher": "A", "bid": 2,
            "points": {"high": "A", "low": "B", "jack": "C", "game": "A"}
        });
        for (k, v) in extra.as_object().unwrap() {
            h[k] = v.clone();
        }
        h
    }

    #[test]
    fn reads_a_played_hand() {
        let Deal::Played(c) = hand(played(json!({}))).unwrap() else {
            panic!("played")
        };
        assert_eq!(
            (c.dealer.as_str(), c.pitcher.as_str(), c.bid),
            ("D", "A", 2)
        );
        assert_eq!(c.points.taker(Point::Low), Some("B"));
        assert_eq!(c.points.taken_by("A"), vec![Point::High, Point::Game]);
        assert_eq!(c.revoke_by, None);
    }

    #[test]
    fn one_player_may_take_high_and_low_and_jack_and_game_may_be_nobody() {
        let h = played(json!({"points": {"high": "B", "low": "B", "jack": null, "game": null}}));
        let Deal::Played(c) = hand(h).unwrap() else {
            panic!("played")
        };
        assert_eq!(c.points.taken_by("B"), vec![Point::High, Point::Low]);
        assert_eq!(c.points.taker(Point::Jack), None);
    }

    #[test]
    fn all_passed_is_a_dead_hand_without_contract_fields() {
        let d = hand(json!({"type": "hand", "dealer": "D", "all_passed": true})).unwrap();
        assert_eq!(d, Deal::AllPassed { dealer: "D".into() });
        let e = hand(played(json!({"all_passed": true}))).unwrap_err();
        assert_eq!(e.field, "pitcher");
        let e =
            hand(json!({"type": "hand", "dealer": "D", "all_passed": true, "bid": 1})).unwrap_err();
        assert_eq!(e.field, "bid");
    }

    #[test]
    fn a_bid_outside_one_to_four_is_refused() {
        for bid in [0, 5, -1, 11] {
            let e = hand(played(json!({ "bid": bid }))).unwrap_err();
            assert_eq!(e.field, "bid");
            assert!(
                e.rule.as_deref().is_some_and(|r| r.contains("rules §1.4")),
                "{e}"
            );
            assert!(
                !e.message.contains("rules §"),
                "the citation is kept apart: {e}"
            );
        }
        for bid in 1..=4 {
            assert!(hand(played(json!({ "bid": bid }))).is_ok());
        }
        assert_eq!(hand(played(json!({"bid": 2.5}))).unwrap_err().field, "bid");
    }

    #[test]
    fn high_and_low_cannot_be_nobody_in_a_played_hand() {
        let e = hand(played(
            json!({"points": {"high": null, "low": "B", "jack": "C", "game": "A"}}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "points.high");
        assert_eq!(e.rule.as_deref(), Some("rules §1.4"), "{e}");
        let e = hand(played(
            json!({"points": {"high": "A", "low": null, "jack": "C", "game": "A"}}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "points.low");
    }

    #[test]
    fn every_named_player_must_be_seated() {
        let field = |extra: Value| hand(played(extra)).unwrap_err().field;
        assert_eq!(field(json!({"dealer": "Zed"})), "dealer");
        assert_eq!(field(json!({"pitcher": "Zed"})), "pitcher");
        assert_eq!(field(json!({"revoke_by": "Zed"})), "revoke_by");
        assert_eq!(
            field(json!({"points": {"high": "A", "low": "B", "jack": "Zed", "game": "A"}})),
            "points.jack"
        );
        assert_eq!(
            field(json!({"points": {"high": "A", "low": "B", "jack": "C", "game": "Zed"}})),
            "points.game"
        );
    }

    #[test]
    fn missing_or_misspelt_fields_are_named() {
        let field = |v: Value| hand(v).unwrap_err().field;
        let mut h = played(json!({}));
        h.as_object_mut().unwrap().remove("pitcher");
        assert_eq!(field(h), "pitcher");
        let mut h = played(json!({}));
        h.as_object_mut().unwrap().remove("bid");
        assert_eq!(field(h), "bid");
        let mut h = played(json!({}));
        h.as_object_mut().unwrap().remove("points");
        assert_eq!(field(h), "points");
        // A point left out went to nobody: fine for Jack, refused for High.
        assert!(
            hand(played(
                json!({"points": {"high": "A", "low": "B", "game": "A"}})
            ))
            .is_ok()
        );
        assert_eq!(
            field(played(
                json!({"points": {"low": "B", "jack": "A", "game": "A"}})
            )),
            "points.high"
        );
        assert_eq!(
            field(played(
                json!({"points": {"high": "A", "low": "B", "jak": null, "jack": null, "game": "A"}})
            )),
            "points.jak"
        );
        assert_eq!(field(played(json!({"bidder": "A"}))), "bidder");
    }

    #[test]
    fn the_dealer_may_be_the_pitcher_and_anyone_may_revoke() {
        assert!(hand(played(json!({"pitcher": "D", "revoke_by": "D"}))).is_ok());
        assert!(hand(played(json!({"revoke_by": null}))).is_ok());
    }
}
