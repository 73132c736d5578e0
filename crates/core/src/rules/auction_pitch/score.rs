//! What one played hand does to the running scores (rules §1.4, S001). Pure.
//!
//! A hand splits into fixed changes (set-back, revoke penalty and bonus) and the card
//! points in the order High, Low, Jack, Game, as the end-of-game count order needs (rule 3).

use serde_json::{Map, Value};

use super::agreements::{Agreements, SmudgeRule, Variant};
use super::hand::{Contract, Point};

/// Running scores of one game in seat order, in points; negative is in the hole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scores(Vec<(String, i64)>);

impl Scores {
    /// Every player in `players` (seat order) at `start` points.
    pub fn fresh(players: &[String], start: i64) -> Scores {
        Scores(players.iter().map(|p| (p.clone(), start)).collect())
    }

    /// `name`'s score; 0 for a name that is not on the sheet.
    pub fn get(&self, name: &str) -> i64 {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, s)| *s)
    }

    /// Adds `delta` points to `name`'s score (nothing for a name not on the sheet).
    pub fn add(&mut self, name: &str, delta: i64) {
        if let Some((_, s)) = self.0.iter_mut().find(|(n, _)| n == name) {
            *s += delta;
        }
    }

    /// Sets `name`'s score to `value` points.
    pub fn set(&mut self, name: &str, value: i64) {
        if let Some((_, s)) = self.0.iter_mut().find(|(n, _)| n == name) {
            *s = value;
        }
    }

    /// Every `(player, score)` in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i64)> {
        self.0.iter().map(|(n, s)| (n.as_str(), *s))
    }

    /// The scores as the ledger shows them: `{"A": 2, "B": 1, …}` in seat order.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.0
                .iter()
                .map(|(n, s)| (n.clone(), Value::from(*s)))
                .collect::<Map<String, Value>>(),
        )
    }
}

/// How the pitcher's bid came out (S001 Scoring, Revokes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// He won at least his bid and adds everything he won.
    Made,
    /// He won fewer points than he bid and is set back the bid.
    SetBack,
    /// He revoked: set back the bid whatever he won.
    PitcherRevoked,
    /// Another player revoked: he loses the bid, every other player gains it.
    Revoked(String),
}

/// One played hand split into fixed changes and counted points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandParts {
    /// How the bid came out.
    pub outcome: Outcome,
    /// Changes that are not card points, signed as they move the score.
    pub fixed: Vec<(String, i64)>,
    /// The card points that count, with their taker; not a set-back pitcher's or a
    /// revoker's ([R] rules §3 item 14).
    pub counted: Vec<(Point, String)>,
    /// What one counted point does to its taker's score: +1, or −1 in count-down.
    pub step: i64,
}

/// A smudge: one player took all four points (smudge variant; rules §1.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smudge {
    /// Who smudged.
    pub player: String,
    /// Whether it wins now: always, or under `not_in_hole` only if he was not in the hole.
    pub wins: bool,
}

/// A scored hand: its parts, the scores before and after, any smudge, and the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    /// The hand split into fixed changes and counted points.
    pub parts: HandParts,
    /// The scores counted from; a smudger in the hole under `not_in_hole` starts from 0.
    pub counted_from: Scores,
    /// The scores after the hand.
    pub after: Scores,
    /// A smudge, if one was made.
    pub smudge: Option<Smudge>,
    /// The hand in words: "A bid 2 and made it with High and Game: +2; B +1 (Low)".
    pub explanation: String,
}

/// Splits a played hand into fixed changes and counted points (S001); `seated` in seat order.
pub fn parts(agreements: &Agreements, seated: &[String], c: &Contract) -> HandParts {
    let step = if agreements.counts_down() { -1 } else { 1 };
    let taken_by_pitcher = c.points.taken_by(&c.pitcher).len() as i64;
    let outcome = match &c.revoke_by {
        Some(who) if *who == c.pitcher => Outcome::PitcherRevoked,
        Some(who) => Outcome::Revoked(who.clone()),
        None if taken_by_pitcher >= c.bid => Outcome::Made,
        None => Outcome::SetBack,
    };
    let (fixed, not_counting): (Vec<(String, i64)>, Option<&str>) = match &outcome {
        Outcome::Made => (Vec::new(), None),
        Outcome::SetBack | Outcome::PitcherRevoked => (
            vec![(c.pitcher.clone(), -c.bid * step)],
            Some(c.pitcher.as_str()),
        ),
        Outcome::Revoked(who) => (
            seated
                .iter()
                .map(|p| {
                    let sign = if p == who { -1 } else { 1 };
                    (p.clone(), sign * c.bid * step)
                })
                .collect(),
            Some(who.as_str()),
        ),
    };
    let counted = Point::ORDER
        .into_iter()
        .filter_map(|point| {
            c.points
                .taker(point)
                .filter(|t| Some(*t) != not_counting)
                .map(|t| (point, t.to_string()))
        })
        .collect();
    HandParts {
        outcome,
        fixed,
        counted,
        step,
    }
}

/// Scores a played hand from `before` (rules §1.4): the pitcher all he won or set back;
/// others what they won; revokes per S001; count-down reversed; a smudge as agreed.
pub fn score_hand(
    agreements: &Agreements,
    seated: &[String],
    before: &Scores,
    c: &Contract,
) -> Scored {
    let parts = parts(agreements, seated, c);
    let smudger = smudger(agreements, &parts);
    let mut counted_from = before.clone();
    let mut smudge = None;
    if let Some(player) = smudger {
        let in_hole = before.get(&player) < 0;
        let wins = agreements.smudge_rule == SmudgeRule::WinsImmediately || !in_hole;
        if !wins {
            counted_from.set(&player, 0);
        }
        smudge = Some(Smudge { player, wins });
    }
    let mut after = counted_from.clone();
    for (p, d) in &parts.fixed {
        after.add(p, *d);
    }
    for (_, taker) in &parts.counted {
        after.add(taker, parts.step);
    }
    let explanation = words(agreements, c, &parts, before, &after, smudge.as_ref());
    Scored {
        parts,
        counted_from,
        after,
        smudge,
        explanation,
    }
}

/// The player who took all four counted points, in the smudge variant.
fn smudger(agreements: &Agreements, parts: &HandParts) -> Option<String> {
    if agreements.variant != Variant::Smudge || parts.counted.len() != Point::ORDER.len() {
        return None;
    }
    let first = &parts.counted[0].1;
    parts
        .counted
        .iter()
        .all(|(_, t)| t == first)
        .then(|| first.clone())
}

/// A number as the score sheet writes it, with a real minus sign: `−2`.
pub use crate::rules::sheet::minus as num;

/// A score change with its sign: `+2`, `−3`, `0`.
pub fn signed(n: i64) -> String {
    if n > 0 { format!("+{n}") } else { num(n) }
}

/// "High", "High and Game", "High, Low and Jack".
pub fn list(points: &[Point]) -> String {
    let words: Vec<&str> = points.iter().map(|p| p.word()).collect();
    match words.split_last() {
        None => "nothing".into(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn counted_by(parts: &HandParts, player: &str) -> Vec<Point> {
    parts
        .counted
        .iter()
        .filter(|(_, t)| t == player)
        .map(|(p, _)| *p)
        .collect()
}

/// The hand in the table's words (pitcher, set back, in the hole, smudge).
fn words(
    agreements: &Agreements,
    c: &Contract,
    parts: &HandParts,
    before: &Scores,
    after: &Scores,
    smudge: Option<&Smudge>,
) -> String {
    let (pitcher, mentioned) = pitcher_words(c, parts);
    let mut items = vec![pitcher];
    for (player, _) in after.iter() {
        if mentioned == Some(player) {
            continue;
        }
        items.extend(other_words(parts, player, c.bid));
    }
    if agreements.counts_down() {
        items.push("count-down: points come off, set-backs go on".into());
    }
    if let Some(s) = smudge {
        items.push(smudge_words(s, before, after));
    }
    if !agreements.counts_down() {
        for (player, score) in after.iter() {
            if score < 0 && score != before.get(player) {
                items.push(format!("{player} is in the hole at {}", num(score)));
            }
        }
    }
    items.join("; ")
}

/// What the pitcher's bid came to (rules §1.4), and whether the words name his score.
fn pitcher_words<'c>(c: &'c Contract, parts: &HandParts) -> (String, Option<&'c str>) {
    let step = parts.step;
    let p = &c.pitcher;
    let bid = c.bid;
    match &parts.outcome {
        Outcome::Made => {
            let won = counted_by(parts, p);
            let words = format!(
                "{p} bid {bid} and made it with {}: {}",
                list(&won),
                signed(won.len() as i64 * step)
            );
            (words, Some(p))
        }
        Outcome::SetBack => {
            let took = c.points.taken_by(p);
            let only = if took.is_empty() {
                String::new()
            } else {
                format!(", taking only {}", list(&took))
            };
            let words = format!(
                "{p} bid {bid} and was set back {bid}{only}: {}",
                signed(-bid * step)
            );
            (words, Some(p))
        }
        Outcome::PitcherRevoked => {
            let words = format!(
                "{p} bid {bid}, revoked and was set back {bid} whatever he won: {}",
                signed(-bid * step)
            );
            (words, Some(p))
        }
        Outcome::Revoked(who) => (
            format!(
                "{who} revoked on {p}'s bid of {bid}: {who} loses {bid}, every other player gains {bid}"
            ),
            None,
        ),
    }
}

/// What `player` other than the pitcher scored (rules §1.4); `None` if nothing.
fn other_words(parts: &HandParts, player: &str, bid: i64) -> Option<String> {
    let step = parts.step;
    let won = counted_by(parts, player);
    let fixed: i64 = parts
        .fixed
        .iter()
        .filter(|(n, _)| n == player)
        .map(|(_, d)| *d)
        .sum();
    if fixed == 0 && won.is_empty() {
        return None;
    }
    let change = fixed + won.len() as i64 * step;
    // Only a revoke gives a non-pitcher a fixed change: the bid as penalty or bonus.
    let why = if fixed == 0 {
        list(&won)
    } else if fixed * step < 0 {
        "the revoke".to_string()
    } else if won.is_empty() {
        format!("the bid {bid}")
    } else {
        format!("the bid {bid} + {}", list(&won))
    };
    Some(format!("{player} {} ({why})", signed(change)))
}

/// A smudge in words (rules §1.4): a win, or the minus dropped and where he stands.
fn smudge_words(s: &Smudge, before: &Scores, after: &Scores) -> String {
    if s.wins {
        format!("{} smudged, taking all four points", s.player)
    } else {
        format!(
            "{} smudged while in the hole at {}: the minus is dropped and {} stands at {}",
            s.player,
            num(before.get(&s.player)),
            s.player,
            num(after.get(&s.player))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::auction_pitch::hand::test_contract as contract;
    use serde_json::json;

    fn seated() -> Vec<String> {
        ["A", "B", "C", "D"].map(String::from).to_vec()
    }

    fn agreements(v: Value) -> Agreements {
        Agreements::read(v.as_object().unwrap()).unwrap()
    }

    fn scores(v: [i64; 4]) -> Scores {
        let mut s = Scores::fresh(&seated(), 0);
        for (p, x) in seated().iter().zip(v) {
            s.set(p, x);
        }
        s
    }

    fn after(a: &Agreements, before: [i64; 4], c: &Contract) -> [i64; 4] {
        let s = score_hand(a, &seated(), &scores(before), c).after;
        [s.get("A"), s.get("B"), s.get("C"), s.get("D")]
    }

    #[test]
    fn a_made_bid_adds_everything_won_and_others_add_theirs() {
        // Golden PT-01.
        let a = agreements(json!({}));
        let c = contract("A", 2, "A B C A", None);
        assert_eq!(after(&a, [0; 4], &c), [2, 1, 1, 0]);
        let s = score_hand(&a, &seated(), &scores([0; 4]), &c);
        assert_eq!(
            s.explanation,
            "A bid 2 and made it with High and Game: +2; B +1 (Low); C +1 (Jack)"
        );
        // More than the bid counts in full, not just the bid.
        assert_eq!(
            after(&a, [0; 4], &contract("A", 1, "A A A A", None)),
            [4, 0, 0, 0]
        );
    }

    #[test]
    fn a_short_pitcher_is_set_back_into_the_hole() {
        // Golden PT-03: 1 − 3 = −2; the jack was not dealt.
        let a = agreements(json!({}));
        let c = contract("A", 3, "A B - D", None);
        assert_eq!(after(&a, [1, 0, 0, 0], &c), [-2, 1, 0, 1]);
        let s = score_hand(&a, &seated(), &scores([1, 0, 0, 0]), &c);
        assert!(
            s.explanation
                .starts_with("A bid 3 and was set back 3, taking only High: −3")
        );
        assert!(
            s.explanation.ends_with("A is in the hole at −2"),
            "{}",
            s.explanation
        );
        assert_eq!(s.parts.outcome, Outcome::SetBack);
    }

    #[test]
    fn a_revoking_pitcher_is_set_back_and_the_others_score() {
        // Golden PT-13.
        let a = agreements(json!({}));
        let c = contract("A", 3, "A B C D", Some("A"));
        assert_eq!(after(&a, [0; 4], &c), [-3, 1, 1, 1]);
        // Even when he won enough.
        let c = contract("A", 2, "A A C D", Some("A"));
        assert_eq!(after(&a, [0; 4], &c), [-2, 0, 1, 1]);
    }

    #[test]
    fn another_revoker_pays_the_bid_to_everyone_who_keeps_his_points() {
        // Golden PT-14: B revokes; A (pitcher) 2 + 2, C 2 + 1, D 2, B only −2.
        let a = agreements(json!({}));
        let c = contract("A", 2, "A B C A", Some("B"));
        assert_eq!(after(&a, [0; 4], &c), [4, -2, 3, 2]);
        let s = score_hand(&a, &seated(), &scores([0; 4]), &c);
        assert_eq!(
            s.explanation,
            "B revoked on A's bid of 2: B loses 2, every other player gains 2; A +4 (the bid 2 + High and Game); B −2 (the revoke); C +3 (the bid 2 + Jack); D +2 (the bid 2); B is in the hole at −2"
        );
        // The pitcher gains the bid even when he won fewer points than he bid.
        let c = contract("A", 3, "C C B D", Some("B"));
        assert_eq!(after(&a, [0; 4], &c), [3, -3, 5, 4]);
    }

    #[test]
    fn count_down_subtracts_points_and_adds_set_backs() {
        // Golden PT-11-a.
        let a = agreements(json!({"variant": "countdown"}));
        assert_eq!(
            after(&a, [7; 4], &contract("A", 2, "A B A A", None)),
            [4, 6, 7, 7]
        );
        assert_eq!(
            after(&a, [7; 4], &contract("A", 3, "A B C -", None)),
            [10, 6, 6, 7]
        );
        // A revoke by C: C goes up by the bid, everyone else comes down by it.
        assert_eq!(
            after(&a, [7; 4], &contract("A", 2, "A B C A", Some("C"))),
            [3, 4, 9, 5]
        );
        let s = score_hand(
            &a,
            &seated(),
            &scores([7; 4]),
            &contract("A", 2, "A B A A", None),
        );
        assert!(
            s.explanation
                .starts_with("A bid 2 and made it with High, Jack and Game: −3")
        );
    }

    #[test]
    fn a_smudge_wins_in_the_smudge_variant_only() {
        let smudge = agreements(json!({"variant": "smudge"}));
        let s = score_hand(
            &smudge,
            &seated(),
            &scores([3, 2, 8, 0]),
            &contract("A", 1, "B B B B", None),
        );
        assert_eq!(
            s.smudge,
            Some(Smudge {
                player: "B".into(),
                wins: true
            })
        );
        assert!(s.explanation.contains("B smudged, taking all four points"));
        let standard = agreements(json!({}));
        let s = score_hand(
            &standard,
            &seated(),
            &scores([0; 4]),
            &contract("A", 1, "B B B B", None),
        );
        assert_eq!(s.smudge, None);
        // No smudge without the jack in play, nor for a revoker's points.
        let s = score_hand(
            &smudge,
            &seated(),
            &scores([0; 4]),
            &contract("A", 1, "B B - B", None),
        );
        assert_eq!(s.smudge, None);
        let s = score_hand(
            &smudge,
            &seated(),
            &scores([0; 4]),
            &contract("A", 1, "B B B B", Some("B")),
        );
        assert_eq!(s.smudge, None);
    }

    #[test]
    fn a_smudger_in_the_hole_stands_at_four_under_not_in_hole() {
        // Golden PT-10.
        let a = agreements(json!({"variant": "smudge", "smudge_rule": "not_in_hole"}));
        let s = score_hand(
            &a,
            &seated(),
            &scores([5, -3, 0, 0]),
            &contract("A", 2, "B B B B", None),
        );
        assert_eq!(
            s.smudge,
            Some(Smudge {
                player: "B".into(),
                wins: false
            })
        );
        assert_eq!([s.after.get("A"), s.after.get("B")], [3, 4]);
        assert_eq!(s.counted_from.get("B"), 0);
        assert!(
            s.explanation.contains(
                "B smudged while in the hole at −3: the minus is dropped and B stands at 4"
            )
        );
        // Not in the hole (0 is not in the hole): the smudge wins.
        let s = score_hand(
            &a,
            &seated(),
            &scores([5, 0, 0, 0]),
            &contract("A", 2, "B B B B", None),
        );
        assert_eq!(
            s.smudge,
            Some(Smudge {
                player: "B".into(),
                wins: true
            })
        );
    }

    #[test]
    fn words_helpers() {
        assert_eq!(list(&[Point::High]), "High");
        assert_eq!(list(&Point::ORDER), "High, Low, Jack and Game");
        assert_eq!(signed(0), "0");
        assert_eq!(signed(-3), "−3");
        assert_eq!(num(-12), "−12");
        assert_eq!(
            scores([1, -2, 0, 3]).to_json(),
            json!({"A": 1, "B": -2, "C": 0, "D": 3})
        );
    }
}
