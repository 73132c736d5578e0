//! Partnership basics shared by the four-handed pinochle games (Partnership §1.5,
//! Partnership Auction and Aeroplane §1.6, Check §1.7, Contract §1.8): who plays with whom,
//! the per-side hand input `{meld, tricks, won_trick}` and its checks, side scores and the
//! target. Game-agnostic and pure: each game decides what the numbers are worth.
//!
//! Seating follows `docs/session-format.md`: exactly four players, seats 1 and 3 are side
//! `NS`, seats 2 and 4 side `EW` (bridge convention: North, East, South, West), so partners
//! sit opposite each other (rules §1.5, S002/S003).

use std::ops::{Index, IndexMut};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::{Column, Layout, RuleError, Step, Tally};

/// The trick points of one deal, shared between the two sides: 250 with the last trick,
/// whichever count the table uses (rules §1.0, S002/S004/PENGUIN).
pub const ALL_TRICK_POINTS: i64 = 250;

/// Players in a partnership game: always four (rules §1.5–1.8).
pub const PLAYERS: usize = 4;

/// A sanity ceiling for one side's meld in one deal, in points. No real deal comes near it
/// (a double trump sequence with every eight-of-a-kind stays well under 10,000); it keeps
/// the arithmetic far from overflow and catches a typed extra zero.
pub const MAX_MELD: i64 = 10_000;

/// A partnership: `NS` (seats 1 and 3) or `EW` (seats 2 and 4), as written in documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Side {
    /// North–South: the first and third players listed.
    NS,
    /// East–West: the second and fourth players listed.
    EW,
}

impl Side {
    /// Both sides in document order.
    pub const BOTH: [Side; 2] = [Side::NS, Side::EW];

    /// The side of the player at 0-based position `seat` in `players`: even seats are `NS`,
    /// odd seats `EW` (session-format).
    pub fn of_seat(seat: usize) -> Side {
        if seat.is_multiple_of(2) {
            Side::NS
        } else {
            Side::EW
        }
    }

    /// The name used in documents and sentences: `"NS"` or `"EW"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::NS => "NS",
            Side::EW => "EW",
        }
    }

    /// The side named `name` (`"NS"`/`"EW"`, exact spelling), if any.
    pub fn from_name(name: &str) -> Option<Side> {
        match name {
            "NS" => Some(Side::NS),
            "EW" => Some(Side::EW),
            _ => None,
        }
    }

    /// The opposing partnership.
    pub fn other(self) -> Side {
        match self {
            Side::NS => Side::EW,
            Side::EW => Side::NS,
        }
    }
}

/// One value per side (points, checks, a hand's input), indexable by [`Side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PerSide<T> {
    /// The `NS` value.
    pub ns: T,
    /// The `EW` value.
    pub ew: T,
}

impl<T> PerSide<T> {
    /// `ns` for `NS` and `ew` for `EW`.
    pub fn new(ns: T, ew: T) -> PerSide<T> {
        PerSide { ns, ew }
    }

    /// The value of each side computed by `f`.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide {
            ns: f(Side::NS),
            ew: f(Side::EW),
        }
    }

    /// Each value mapped by `f`, which also sees the side.
    pub fn map<U>(&self, mut f: impl FnMut(Side, &T) -> U) -> PerSide<U> {
        PerSide {
            ns: f(Side::NS, &self.ns),
            ew: f(Side::EW, &self.ew),
        }
    }

    /// The values with the sides' names exchanged (NS gets EW's and the other way round),
    /// which is what rotating the players by one seat does.
    pub fn swapped(self) -> PerSide<T> {
        PerSide {
            ns: self.ew,
            ew: self.ns,
        }
    }
}

impl<T> Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::NS => &self.ns,
            Side::EW => &self.ew,
        }
    }
}

impl<T> IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::NS => &mut self.ns,
            Side::EW => &mut self.ew,
        }
    }
}

impl PerSide<i64> {
    /// The document shape of side totals: `{"NS": 850, "EW": 700}` (session-format), in
    /// whatever unit the caller keeps (points or checks).
    pub fn to_json(&self) -> Value {
        json!({ "NS": self.ns, "EW": self.ew })
    }
}

/// The four players of a partnership game in seat order, clockwise (session-format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seating {
    seats: [String; PLAYERS],
}

impl Seating {
    /// The sheet's columns: one group per side (NS, then EW) headed by its members
    /// ("Ann & Cy"), with one column per tally in `tallies` (points, or points and checks).
    pub fn layout(&self, tallies: &[Tally]) -> Layout {
        let columns = Side::BOTH
            .iter()
            .flat_map(|&side| {
                tallies.iter().map(move |&tally| Column {
                    account: side.name().into(),
                    label: side.name().into(),
                    members: self.members(side).join(" & "),
                    tally,
                })
            })
            .collect();
        Layout { columns }
    }

    /// The seating of `players` (clockwise). Errors (field `players`): not exactly four
    /// players, or a name listed twice.
    pub fn new(players: &[String]) -> Result<Seating, RuleError> {
        let seats: [String; PLAYERS] = players.to_vec().try_into().map_err(|_| {
            RuleError::new(
                "players",
                format!(
                    "a partnership game seats exactly 4 players, partners opposite, and {} are listed",
                    players.len()
                ),
            )
            .rule("rules §1.5–1.8")
        })?;
        for (i, name) in seats.iter().enumerate() {
            if seats[..i].contains(name) {
                return Err(RuleError::new("players", format!("{name} is listed twice")));
            }
        }
        Ok(Seating { seats })
    }

    /// The players in seat order.
    pub fn players(&self) -> &[String] {
        &self.seats
    }

    /// The 0-based seat of `name`, if seated.
    pub fn seat_of(&self, name: &str) -> Option<usize> {
        self.seats.iter().position(|s| s == name)
    }

    /// The side of `name`: seats 1 and 3 `NS`, 2 and 4 `EW`; `None` if not seated.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        self.seat_of(name).map(Side::of_seat)
    }

    /// The two members of `side`, in seat order (`NS`: seats 1 and 3).
    pub fn members(&self, side: Side) -> [&str; 2] {
        let first = match side {
            Side::NS => 0,
            Side::EW => 1,
        };
        [&self.seats[first], &self.seats[first + 2]]
    }

    /// The partner of `name`: the player sitting opposite (two seats on).
    pub fn partner(&self, name: &str) -> Option<&str> {
        self.seat_of(name)
            .map(|i| self.seats[(i + 2) % PLAYERS].as_str())
    }

    /// The opponent `name` settles with when "each player collects from one of his
    /// opponents" (BIC-CHK; rules §3 item 24): seat 1 with seat 2 and seat 3 with seat 4,
    /// so N↔E and S↔W, as golden case CK-09-a pays E→N and W→S.
    pub fn opposite_number(&self, name: &str) -> Option<&str> {
        self.seat_of(name).map(|i| self.seats[i ^ 1].as_str())
    }

    /// Both pairs of opposite numbers ([`Seating::opposite_number`]): seat 1 with seat 2,
    /// seat 3 with seat 4, the pairs the rows name when each loser pays his opposite number.
    pub fn opposite_pairs(&self) -> Vec<(String, String)> {
        self.seats
            .chunks(2)
            .filter_map(|p| match p {
                [a, b] => Some((a.clone(), b.clone())),
                _ => None,
            })
            .collect()
    }
}

/// One side's result of a deal as entered at the table (rules §1.5–1.7 per-hand inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideHand {
    /// The side's melds added together, in points, before the trick rule.
    pub meld: i64,
    /// Trick points taken (counters plus 10 for the last trick), 0–250.
    pub tricks: i64,
    /// Whether the side won at least one trick (its meld counts only then).
    pub won_trick: bool,
}

impl SideHand {
    /// A side's input; `won_trick` left out means "took any trick points" (a trick can be
    /// won with no points in it, which the table must then say explicitly).
    pub fn new(meld: i64, tricks: i64, won_trick: Option<bool>) -> SideHand {
        SideHand {
            meld,
            tricks,
            won_trick: won_trick.unwrap_or(tricks > 0),
        }
    }

    /// The meld that counts, in points: all of it if the side won a trick or the game does
    /// not require one, else nothing (rules §1.5 "melds count only if the partnership wins
    /// at least one trick"; §1.7 BIC-CHK).
    pub fn counted_meld(&self, needs_trick: bool) -> i64 {
        if self.won_trick || !needs_trick {
            self.meld
        } else {
            0
        }
    }

    /// Counted meld plus trick points, in points.
    pub fn points(&self, meld_needs_trick: bool) -> i64 {
        self.counted_meld(meld_needs_trick) + self.tricks
    }
}

/// Checks both sides' input of one deal. Errors name the field (`NS.meld`, `EW.tricks`,
/// `EW.won_trick`): a negative meld or one that is not a multiple of 10 (every meld in
/// rules §1.0 is), more than [`MAX_MELD`], trick points outside 0–250 or not summing to
/// exactly 250 (rules §1.0), trick points without a trick, or neither side winning a trick.
pub fn check_hands(hands: &PerSide<SideHand>) -> Result<(), RuleError> {
    for side in Side::BOTH {
        let h = hands[side];
        let field = |f: &str| format!("{}.{f}", side.name());
        if h.meld < 0 {
            return Err(RuleError::new(
                field("meld"),
                format!("{} cannot be negative", h.meld),
            ));
        }
        if h.meld % 10 != 0 {
            return Err(RuleError::new(
                field("meld"),
                format!("{} is not a meld: melds count in tens", h.meld),
            )
            .rule("rules §1.0"));
        }
        if h.meld > MAX_MELD {
            return Err(RuleError::new(
                field("meld"),
                format!("{} is more than any deal can meld ({MAX_MELD})", h.meld),
            ));
        }
        if !(0..=ALL_TRICK_POINTS).contains(&h.tricks) {
            return Err(RuleError::new(
                field("tricks"),
                format!(
                    "{} is outside 0–250, the trick points in one deal",
                    h.tricks
                ),
            )
            .rule("rules §1.0"));
        }
        if h.tricks > 0 && !h.won_trick {
            return Err(RuleError::new(
                field("won_trick"),
                format!(
                    "{} took {} trick points, so it won a trick",
                    side.name(),
                    h.tricks
                ),
            ));
        }
    }
    let sum = hands.ns.tricks + hands.ew.tricks;
    if sum != ALL_TRICK_POINTS {
        return Err(RuleError::new(
            "EW.tricks",
            format!(
                "NS {} + EW {} = {sum} trick points; the sides take exactly 250 between them",
                hands.ns.tricks, hands.ew.tricks
            ),
        )
        .rule("rules §1.0"));
    }
    if !hands.ns.won_trick && !hands.ew.won_trick {
        return Err(RuleError::new(
            "EW.won_trick",
            "neither side won a trick, but each of the 12 tricks is won by someone",
        ));
    }
    Ok(())
}

/// Who reached the target after a deal (rules §1.5–1.7 "first side to 1,000").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetReached {
    /// Nobody: play on.
    Neither,
    /// Exactly one side reached it.
    One(Side),
    /// Both reached it on the same deal; each game has its own tie rule (the bidding side
    /// wins in §1.6/§1.7, the target rises by 250 in §1.5).
    Both,
}

/// Compares side scores with `target` (points): a side has reached it at `score ≥ target`.
pub fn target_reached(scores: &PerSide<i64>, target: i64) -> TargetReached {
    match (scores.ns >= target, scores.ew >= target) {
        (false, false) => TargetReached::Neither,
        (true, false) => TargetReached::One(Side::NS),
        (false, true) => TargetReached::One(Side::EW),
        (true, true) => TargetReached::Both,
    }
}

/// Reads `opening_scores` for a partnership game: `null`, `{}` or `{"NS": 850, "EW": 700}`
/// in points, a missing side being 0 (session-format). Errors name the field
/// (`opening_scores.Ann`): any other key, or a value that is not an integer.
pub fn read_opening_scores(value: Option<&Value>) -> Result<PerSide<i64>, RuleError> {
    let map = match value {
        None | Some(Value::Null) => return Ok(PerSide::default()),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(RuleError::new(
                "opening_scores",
                "a partnership game carries in side scores, like {\"NS\": 850, \"EW\": 700}",
            ));
        }
    };
    side_integers(map, "opening_scores")
}

fn side_integers(map: &Map<String, Value>, field: &str) -> Result<PerSide<i64>, RuleError> {
    let mut out = PerSide::default();
    for (key, v) in map {
        let side = Side::from_name(key).ok_or_else(|| {
            RuleError::new(
                format!("{field}.{key}"),
                "a partnership game keeps scores per side: use \"NS\" and \"EW\"",
            )
            .rule("session-format")
        })?;
        out[side] = v.as_i64().ok_or_else(|| {
            RuleError::new(
                format!("{field}.{key}"),
                format!("{v} is not a whole number of points"),
            )
        })?;
    }
    Ok(out)
}

/// The money for one finished game won by `winner`, as the partnership games that pay a
/// stake per game settle it (session-format "Money in the partnership games"): each player of the losing side pays
/// `stake` (cents per game) to his opposite number on the winning side
/// ([`Seating::opposite_number`]: seat 1 with seat 2, seat 3 with seat 4). Returns the
/// postings (summing to zero), the words ("0.50 a game each: E pays N 0.50, W pays S 0.50")
/// and the same as steps (the stake per game, each payment); a zero stake pays nothing.
pub fn pay_game(seating: &Seating, winner: Side, stake: Money) -> (Postings, String, Vec<Step>) {
    let mut postings = Postings::new();
    if stake.is_zero() {
        return (
            postings,
            "no stake: points only, nobody pays".into(),
            Vec::new(),
        );
    }
    let mut paid = Vec::new();
    let mut steps = vec![Step::Stake {
        amount: stake,
        per: "game".into(),
    }];
    for loser in seating.members(winner.other()) {
        let to = seating.opposite_number(loser).unwrap_or(loser);
        postings.transfer(loser, to, stake);
        paid.push(format!("{loser} pays {to} {stake}"));
        steps.push(Step::Pays {
            from: loser.to_string(),
            to: to.to_string(),
            amount: stake,
            why: format!("the game won by {}, to his opposite number", winner.name()),
        });
    }
    (
        postings,
        format!("{stake} a game each: {}", paid.join(", ")),
        steps,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    #[test]
    fn seats_one_and_three_are_ns() {
        let s = seating();
        assert_eq!(s.side_of("N"), Some(Side::NS));
        assert_eq!(s.side_of("E"), Some(Side::EW));
        assert_eq!(s.side_of("S"), Some(Side::NS));
        assert_eq!(s.side_of("W"), Some(Side::EW));
        assert_eq!(s.side_of("X"), None);
        assert_eq!(s.members(Side::NS), ["N", "S"]);
        assert_eq!(s.members(Side::EW), ["E", "W"]);
        assert_eq!(Side::NS.other(), Side::EW);
        assert_eq!(Side::from_name("EW"), Some(Side::EW));
        assert_eq!(Side::from_name("ew"), None);
    }

    #[test]
    fn partners_sit_opposite_and_opposite_numbers_pair_n_e_and_s_w() {
        let s = seating();
        assert_eq!(s.partner("N"), Some("S"));
        assert_eq!(s.partner("W"), Some("E"));
        assert_eq!(s.opposite_number("N"), Some("E"));
        assert_eq!(s.opposite_number("E"), Some("N"));
        assert_eq!(s.opposite_number("S"), Some("W"));
        assert_eq!(s.opposite_number("W"), Some("S"));
        for p in ["N", "E", "S", "W"] {
            let o = s.opposite_number(p).unwrap();
            assert_ne!(s.side_of(p), s.side_of(o));
        }
    }

    #[test]
    fn seating_needs_four_different_players() {
        assert!(Seating::new(&["A", "B", "C"].map(String::from)).is_err());
        let e = Seating::new(&["A", "B", "A", "C"].map(String::from)).unwrap_err();
        assert_eq!(e.field, "players");
    }

    fn hands(ns: (i64, i64, Option<bool>), ew: (i64, i64, Option<bool>)) -> PerSide<SideHand> {
        PerSide::new(
            SideHand::new(ns.0, ns.1, ns.2),
            SideHand::new(ew.0, ew.1, ew.2),
        )
    }

    #[test]
    fn tricks_must_sum_to_250() {
        assert!(check_hands(&hands((100, 180, None), (60, 70, None))).is_ok());
        let e = check_hands(&hands((100, 180, None), (60, 60, None))).unwrap_err();
        assert_eq!(e.field, "EW.tricks");
        assert!(e.message.contains("240"), "{}", e.message);
        let e = check_hands(&hands((0, 260, None), (0, -10, None))).unwrap_err();
        assert_eq!(e.field, "NS.tricks");
    }

    #[test]
    fn meld_is_a_non_negative_multiple_of_ten() {
        let e = check_hands(&hands((-20, 180, None), (0, 70, None))).unwrap_err();
        assert_eq!(e.field, "NS.meld");
        let e = check_hands(&hands((0, 180, None), (65, 70, None))).unwrap_err();
        assert_eq!(e.field, "EW.meld");
        let e = check_hands(&hands((MAX_MELD + 10, 180, None), (0, 70, None))).unwrap_err();
        assert_eq!(e.field, "NS.meld");
    }

    #[test]
    fn trick_flags_must_agree_with_the_points() {
        let e = check_hands(&hands((0, 180, Some(false)), (0, 70, None))).unwrap_err();
        assert_eq!(e.field, "NS.won_trick");
        let e = check_hands(&hands((0, 250, Some(false)), (0, 0, None))).unwrap_err();
        assert_eq!(e.field, "NS.won_trick");
        // A trick with no points in it still counts as won when the table says so.
        let h = hands((40, 250, None), (60, 0, Some(true)));
        assert!(check_hands(&h).is_ok());
        assert_eq!(h.ew.counted_meld(true), 60);
        let h = hands((40, 250, None), (60, 0, None));
        assert!(!h.ew.won_trick);
        assert_eq!(h.ew.counted_meld(true), 0);
        assert_eq!(h.ew.counted_meld(false), 60);
        assert_eq!(h.ns.points(true), 290);
    }

    #[test]
    fn target_is_reached_at_or_above() {
        let t = |ns, ew| target_reached(&PerSide::new(ns, ew), 1000);
        assert_eq!(t(999, -50), TargetReached::Neither);
        assert_eq!(t(1000, 990), TargetReached::One(Side::NS));
        assert_eq!(t(400, 1200), TargetReached::One(Side::EW));
        assert_eq!(t(1060, 1090), TargetReached::Both);
    }

    #[test]
    fn opening_scores_are_per_side() {
        assert_eq!(read_opening_scores(None).unwrap(), PerSide::new(0, 0));
        assert_eq!(
            read_opening_scores(Some(&Value::Null)).unwrap(),
            PerSide::new(0, 0)
        );
        let v = json!({"NS": 850, "EW": -70});
        assert_eq!(
            read_opening_scores(Some(&v)).unwrap(),
            PerSide::new(850, -70)
        );
        let v = json!({"EW": 700});
        assert_eq!(read_opening_scores(Some(&v)).unwrap(), PerSide::new(0, 700));
        let v = json!({"Ann": 7});
        assert_eq!(
            read_opening_scores(Some(&v)).unwrap_err().field,
            "opening_scores.Ann"
        );
        let v = json!({"NS": "850"});
        assert_eq!(
            read_opening_scores(Some(&v)).unwrap_err().field,
            "opening_scores.NS"
        );
        assert!(read_opening_scores(Some(&json!([1, 2]))).is_err());
    }

    #[test]
    fn per_side_values_swap_and_serialise() {
        let p = PerSide::new(320, 130);
        assert_eq!(p.swapped(), PerSide::new(130, 320));
        assert_eq!(p.to_json(), json!({"NS": 320, "EW": 130}));
        assert_eq!(Side::of_seat(0), Side::NS);
        assert_eq!(Side::of_seat(3), Side::EW);
    }

    #[test]
    fn each_loser_pays_his_opposite_number_the_stake_per_game() {
        let s = Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap();
        // NS win at 0.25: E pays N, W pays S, 0.25 each; the steps hold every cent.
        let (p, why, steps) = pay_game(&s, Side::NS, Money::from_cents(25));
        assert_eq!(
            ["N", "E", "S", "W"].map(|x| p.net(x).cents()),
            [25, -25, 25, -25]
        );
        assert_eq!(why, "0.25 a game each: E pays N 0.25, W pays S 0.25");
        assert_eq!(steps.len(), 3);
        assert!(matches!(&steps[1], Step::Pays { from, to, amount, .. }
            if from == "E" && to == "N" && amount.cents() == 25));
        assert!(matches!(&steps[2], Step::Pays { from, to, .. } if from == "W" && to == "S"));
        // EW win at 1.00: N pays E, S pays W.
        let (p, why, _) = pay_game(&s, Side::EW, Money::from_cents(100));
        assert_eq!(
            ["N", "E", "S", "W"].map(|x| p.net(x).cents()),
            [-100, 100, -100, 100]
        );
        assert!(why.contains("N pays E 1.00, S pays W 1.00"), "{why}");
        let (p, why, steps) = pay_game(&s, Side::EW, Money::ZERO);
        assert!(p.into_vec().is_empty() && steps.is_empty());
        assert!(why.contains("points only"), "{why}");
    }
}
