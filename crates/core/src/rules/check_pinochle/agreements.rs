//! Check Pinochle's table agreements (rules §1.7, §3 items 19–25; session-format
//! `check_pinochle`). Unknown fields are refused by name.
//!
//! ```json
//! { "stake": "0.05",                  // money per check (default "0.00")
//!   "check_table": "hoyle",           // "hoyle" (default) | "scarne" | { custom, below }
//!   "make_checks": [[200, 2], …],     // scarne only: the 200–590 bands
//!   "meld_checks": { "flush": 3 },    // overrides, per occurrence (default BIC-CHK values)
//!   "game_award": "scarne",           // "scarne" (7, default) | "hoyle" | "time1940" (15) | n
//!   "target": 1000,
//!   "settlement": "per_player",       // | "per_partnership"
//!   "roundhouse_includes_kings_queens_checks": false,  // rules §3 item 21 [R]
//!   "meld_needs_trick": true,                          // item 22 [R]
//!   "slam_and_count_cumulative": true,                 // item 23 [R]
//!   "unfinished_game": "settle" }     // | "void": a game still open at close [R]
//! ```
//!
//! A custom `check_table`: `{"make_checks": [[200, 2], [300, 6]], "defeat_checks": […],
//! "further": {"from": 600, "every": 50, "make": 5, "defeat": 10}, "slam": 5, "all_count":
//! 0}`; only `make_checks` is required. Defeats default to twice the make, `further` to
//! none (last band open-ended). Band lists start at the minimum bid 200.

use serde::Deserialize;
use serde_json::Value;

use super::checks::{CheckTable, Further, GameAward, MeldCheck, MeldValues};
use crate::money::Money;
use crate::rules::typed::{Stake, TableAgreements, points_within, thousand, yes};
use crate::rules::{RuleError, fields};

/// Who pays whom when a game is settled (rules §1.7 settlement, §3 item 24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settlement {
    /// Each loser pays his opposite number difference × stake ([R] default; BIC-CHK).
    #[default]
    PerPlayer,
    /// The losing partnership pays difference × stake once, half per partner (odd cent: `settle`).
    PerPartnership,
}

/// What `close` does with a game that has not reached the target (no source speaks of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unfinished {
    /// The checks are paid as they stand, no game award ([R] default; S003, BIC-CHK).
    #[default]
    Settle,
    /// Nothing is paid (S003 pays "on the completion of a 1,000-point game").
    Void,
}

/// Every agreement of a Check Pinochle session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per check, in cents (S003 suggests 5¢).
    pub stake: Money,
    /// Contract, slam and count checks.
    pub table: CheckTable,
    /// Checks per occurrence of each check-bearing meld.
    pub meld_checks: MeldValues,
    /// Checks for winning the game.
    pub game_award: GameAward,
    /// Points that end a game (1,000, S003).
    pub target: i64,
    /// How the check difference is paid.
    pub settlement: Settlement,
    /// Rules §3 item 21: a roundhouse also earns the kings and queens checks (default false [R]).
    pub roundhouse_includes_kings_queens: bool,
    /// Rules §3 item 22: meld counts only with a trick (default true [R]; BIC-CHK).
    pub meld_needs_trick: bool,
    /// Rules §3 item 23: slam and all-250 count both score (default true [R]).
    pub slam_and_count_cumulative: bool,
    /// What `close` does with a game still in progress.
    pub unfinished_game: Unfinished,
}

fn five() -> i64 {
    5
}

/// The largest target accepted, in points: far beyond any game, far from overflow.
const MAX_TARGET: i64 = 1_000_000;

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    check_table: Option<Value>,
    make_checks: Option<Vec<(i64, i64)>>,
    meld_checks: Option<WrittenMeldChecks>,
    game_award: Option<Value>,
    #[serde(default = "thousand")]
    target: i64,
    #[serde(default)]
    settlement: Settlement,
    #[serde(default)]
    roundhouse_includes_kings_queens_checks: bool,
    #[serde(default = "yes")]
    meld_needs_trick: bool,
    #[serde(default = "yes")]
    slam_and_count_cumulative: bool,
    #[serde(default)]
    unfinished_game: Unfinished,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenMeldChecks {
    flush: Option<i64>,
    aces_100: Option<i64>,
    kings_80: Option<i64>,
    queens_60: Option<i64>,
    jacks_40: Option<i64>,
    double_pinochle: Option<i64>,
    roundhouse: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenCustom {
    make_checks: Vec<(i64, i64)>,
    defeat_checks: Option<Vec<(i64, i64)>>,
    further: Option<WrittenFurther>,
    #[serde(default = "five")]
    slam: i64,
    #[serde(default)]
    all_count: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenFurther {
    from: i64,
    every: i64,
    make: i64,
    defeat: Option<i64>,
}

impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let fail = |field: &str, message: String| RuleError::new(field, message);
        points_within("target", w.target, MAX_TARGET, "", None)?;
        let table = read_table(w.check_table.as_ref(), w.make_checks.as_deref())?;
        let mut meld_checks = MeldValues::HOYLE;
        if let Some(m) = &w.meld_checks {
            let given = [
                (MeldCheck::Flush, m.flush),
                (MeldCheck::Aces100, m.aces_100),
                (MeldCheck::Kings80, m.kings_80),
                (MeldCheck::Queens60, m.queens_60),
                (MeldCheck::Jacks40, m.jacks_40),
                (MeldCheck::DoublePinochle, m.double_pinochle),
                (MeldCheck::Roundhouse, m.roundhouse),
            ];
            for (meld, checks) in given {
                let Some(checks) = checks else { continue };
                if !(0..=super::checks::MAX_CHECKS).contains(&checks) {
                    return Err(fail(
                        &format!("meld_checks.{}", meld.id()),
                        format!("{checks} checks must be between 0 and 10000"),
                    ));
                }
                meld_checks.set(meld, checks);
            }
        }
        let game_award = read_game_award(w.game_award.as_ref())?;
        Ok(Agreements {
            stake: w.stake.money(),
            table,
            meld_checks,
            game_award,
            target: w.target,
            settlement: w.settlement,
            roundhouse_includes_kings_queens: w.roundhouse_includes_kings_queens_checks,
            meld_needs_trick: w.meld_needs_trick,
            slam_and_count_cumulative: w.slam_and_count_cumulative,
            unfinished_game: w.unfinished_game,
        })
    }
}

/// `check_table` and `make_checks` (rules §1.7, §3 item 19); the latter for scarne only.
fn read_table(spec: Option<&Value>, make: Option<&[(i64, i64)]>) -> Result<CheckTable, RuleError> {
    let fail = |field: &str, message: String| RuleError::new(field, message);
    match spec {
        None | Some(Value::Null) => match make {
            None => Ok(CheckTable::hoyle()),
            Some(_) => Err(fail(
                "make_checks",
                "make_checks goes with check_table \"scarne\"; the default hoyle table is fully sourced".into(),
            )
            .rule("BIC-CHK")),
        },
        Some(Value::String(name)) => match (name.as_str(), make) {
            ("hoyle", None) => Ok(CheckTable::hoyle()),
            ("hoyle", Some(_)) => Err(fail(
                "make_checks",
                "the hoyle table's bands are sourced; for other numbers use \"scarne\" or a custom check_table".into(),
            )
            .rule("BIC-CHK")),
            ("scarne", None) => Err(fail(
                "make_checks",
                "a scarne table needs the 200–590 bands as [lowest_bid, checks] pairs: S003 prints the rows without numbers".into(),
            )
            .rule("rules §1.7, §3 item 19")),
            ("scarne", Some(pairs)) => {
                CheckTable::scarne(pairs).map_err(|m| fail("make_checks", m))
            }
            (other, _) => Err(fail(
                "check_table",
                format!("\"{other}\" is not a check table; use \"hoyle\", \"scarne\" or a custom table object"),
            )
            .rule("rules §3 item 19")),
        },
        Some(Value::Object(object)) => {
            if make.is_some() {
                return Err(fail(
                    "make_checks",
                    "a custom check_table carries its own make_checks inside it".into(),
                ));
            }
            let c: WrittenCustom =
                fields::read(object).map_err(|e| e.within("check_table"))?;
            let further = c.further.map(|f| Further {
                from: f.from,
                every: f.every,
                make: f.make,
                defeat: f.defeat.unwrap_or(2 * f.make),
            });
            CheckTable::custom(
                &c.make_checks,
                c.defeat_checks.as_deref(),
                further,
                c.slam,
                c.all_count,
            )
            .map_err(|m| fail("check_table", m))
        }
        Some(other) => Err(fail(
            "check_table",
            format!("{other} is not a check table; use \"hoyle\", \"scarne\" or a custom table object"),
        )),
    }
}

/// `game_award` (rules §3 item 20): `"scarne"` (7), `"hoyle"`, `"time1940"` (15) or a number.
fn read_game_award(spec: Option<&Value>) -> Result<GameAward, RuleError> {
    let fail = |message: String| RuleError::new("game_award", message);
    match spec {
        None | Some(Value::Null) => Ok(GameAward::Scarne),
        Some(Value::String(s)) => match s.as_str() {
            "scarne" => Ok(GameAward::Scarne),
            "hoyle" => Ok(GameAward::Hoyle),
            "time1940" => Ok(GameAward::Time1940),
            other => Err(fail(format!(
                "\"{other}\" is not a game award; use \"scarne\" (7), \"hoyle\", \"time1940\" (15) or a number of checks"
            ))
            .rule("rules §3 item 20")),
        },
        Some(v) => match v.as_i64() {
            Some(n) if (0..=super::checks::MAX_CHECKS).contains(&n) => Ok(GameAward::Fixed(n)),
            _ => Err(fail(format!(
                "{v} is not a game award; use \"scarne\", \"hoyle\", \"time1940\" or a whole number of checks 0–10000"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_follow_the_session_format_and_the_open_points() {
        let a = read(json!({})).unwrap();
        assert_eq!(a.stake, Money::ZERO);
        assert_eq!(a.table, CheckTable::hoyle());
        assert_eq!(a.meld_checks, MeldValues::HOYLE);
        assert_eq!(a.game_award, GameAward::Scarne);
        assert_eq!(a.target, 1000);
        assert_eq!(a.settlement, Settlement::PerPlayer);
        assert!(!a.roundhouse_includes_kings_queens);
        assert!(a.meld_needs_trick);
        assert!(a.slam_and_count_cumulative);
        assert_eq!(a.unfinished_game, Unfinished::Settle);
    }

    #[test]
    fn every_option_is_read() {
        let a = read(json!({
            "stake": "0.05", "check_table": "scarne",
            "make_checks": [[200, 1], [300, 6], [400, 12]],
            "meld_checks": {"flush": 3, "roundhouse": 6},
            "game_award": "hoyle", "target": 1500, "settlement": "per_partnership",
            "roundhouse_includes_kings_queens_checks": true, "meld_needs_trick": false,
            "slam_and_count_cumulative": false, "unfinished_game": "void"
        }))
        .unwrap();
        assert_eq!(a.stake, Money::from_cents(5));
        assert_eq!(a.table.name, "scarne");
        assert_eq!(a.table.make_checks(350), 6);
        assert_eq!(a.meld_checks.get(MeldCheck::Flush), 3);
        assert_eq!(a.meld_checks.get(MeldCheck::Roundhouse), 6);
        assert_eq!(a.meld_checks.get(MeldCheck::Aces100), 2);
        assert_eq!(a.game_award, GameAward::Hoyle);
        assert_eq!(a.target, 1500);
        assert_eq!(a.settlement, Settlement::PerPartnership);
        assert!(a.roundhouse_includes_kings_queens);
        assert!(!a.meld_needs_trick && !a.slam_and_count_cumulative);
        assert_eq!(a.unfinished_game, Unfinished::Void);
        assert_eq!(
            read(json!({"game_award": "time1940"})).unwrap().game_award,
            GameAward::Time1940
        );
        assert_eq!(
            read(json!({"game_award": 12})).unwrap().game_award,
            GameAward::Fixed(12)
        );
    }

    #[test]
    fn a_custom_table_reads_its_parts() {
        let a = read(json!({"check_table": {
            "make_checks": [[200, 2], [300, 6]],
            "further": {"from": 400, "every": 50, "make": 4},
            "all_count": 3
        }}))
        .unwrap();
        assert_eq!(a.table.name, "custom");
        assert_eq!(a.table.make_checks(390), 6);
        assert_eq!(a.table.make_checks(400), 10);
        assert_eq!(a.table.defeat_checks(400), 20);
        assert_eq!((a.table.slam, a.table.all_count), (5, 3));
        assert_eq!(
            field(json!({"check_table": {"make_checks": [[200, 2]], "slamm": 5}})),
            "agreements.check_table.slamm"
        );
        assert_eq!(
            field(json!({"check_table": {"make_checks": [[250, 2]]}})),
            "agreements.check_table"
        );
        assert_eq!(
            field(json!({"check_table": {"make_checks": [[200, 2]]}, "make_checks": [[200, 2]]})),
            "agreements.make_checks"
        );
    }

    #[test]
    fn scarne_needs_its_bands_and_hoyle_refuses_them() {
        assert_eq!(
            field(json!({"check_table": "scarne"})),
            "agreements.make_checks"
        );
        assert_eq!(
            field(json!({"check_table": "hoyle", "make_checks": [[200, 2]]})),
            "agreements.make_checks"
        );
        assert_eq!(
            field(json!({"make_checks": [[200, 2]]})),
            "agreements.make_checks"
        );
        assert_eq!(
            field(json!({"check_table": "scarne", "make_checks": [[200, 2], [650, 9]]})),
            "agreements.make_checks"
        );
        assert_eq!(
            field(json!({"check_table": "scarne", "make_checks": [[200, "x"]]})),
            "agreements.make_checks[0][1]"
        );
    }

    #[test]
    fn refusals_name_the_agreement() {
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"stake": 0.05})), "agreements.stake");
        assert_eq!(
            field(json!({"check_table": "bicycle"})),
            "agreements.check_table"
        );
        assert_eq!(field(json!({"check_table": 7})), "agreements.check_table");
        assert_eq!(
            field(json!({"game_award": "bridge"})),
            "agreements.game_award"
        );
        assert_eq!(field(json!({"game_award": -1})), "agreements.game_award");
        assert_eq!(field(json!({"target": 0})), "agreements.target");
        assert_eq!(
            field(json!({"settlement": "split"})),
            "agreements.settlement"
        );
        assert_eq!(
            field(json!({"units_table": "standard"})),
            "agreements.units_table"
        );
        assert_eq!(
            field(json!({"meld_checks": {"pinochle": 1}})),
            "agreements.meld_checks.pinochle"
        );
        assert_eq!(
            field(json!({"meld_checks": {"flush": -1}})),
            "agreements.meld_checks.flush"
        );
        assert_eq!(
            field(json!({"unfinished_game": "later"})),
            "agreements.unfinished_game"
        );
    }
}
