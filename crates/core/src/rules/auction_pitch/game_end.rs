//! The end of an Auction Pitch game: who wins (rules §1.4 end of game 1–3, Smudge,
//! count-down) and what the losers pay. Pure.

use super::agreements::{Agreements, NegativeDifference};
use super::hand::{Contract, Point};
use super::score::{Scored, Scores, num};
use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::{RuleError, Step};

/// How a game was decided: the `decided_by` words of the ledger's `games`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// A smudge in the smudge variant (rules §1.4 Smudge): `"smudge"`.
    Smudge,
    /// Rule 1: the pitcher went out, whoever else did (S001, AIRP, H2G2): `"pitcher_out"`.
    PitcherOut,
    /// Rule 2: exactly one player out: `"only_one_out"`, or `"countdown"` counting down.
    OnlyOneOut,
    /// Rule 3: several but the pitcher out; this point carried the winner out first on a
    /// recount: `"count_order:high"` … (never Game, counted last).
    CountOrder(Point),
    /// Rule 3, by the revoke's bonus (counted first); ties to the furthest out, then the
    /// dealer's left ([R]): `"count_order:revoke"`.
    CountOrderRevoke,
}

/// The winner of a game and how he won.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Win {
    /// The winner's name.
    pub winner: String,
    /// How it was decided.
    pub decision: Decision,
}

impl Win {
    /// The ledger's `decided_by` words.
    pub fn decided_by(&self, agreements: &Agreements) -> String {
        match self.decision {
            Decision::Smudge => "smudge".into(),
            Decision::PitcherOut => "pitcher_out".into(),
            Decision::OnlyOneOut if agreements.counts_down() => "countdown".into(),
            Decision::OnlyOneOut => "only_one_out".into(),
            Decision::CountOrder(point) => format!("count_order:{}", point.id()),
            Decision::CountOrderRevoke => "count_order:revoke".into(),
        }
    }

    fn how(&self, agreements: &Agreements) -> String {
        match self.decision {
            Decision::Smudge => "by a smudge".into(),
            Decision::PitcherOut => "as pitcher".into(),
            Decision::OnlyOneOut if agreements.counts_down() => {
                "as the first to count down to zero".into()
            }
            Decision::OnlyOneOut => "as the only player out".into(),
            Decision::CountOrder(point) => format!(
                "by the count order High, Low, Jack, Game from the scores before the hand ({} took {} out first)",
                point.word(),
                self.winner
            ),
            Decision::CountOrderRevoke => format!(
                "by the count order: the revoke's bonus, counted before the points, took {} out first",
                self.winner
            ),
        }
    }
}

/// Who wins with this hand (rules §1.4): a winning smudge; the pitcher out (rule 1); the
/// only player out (rule 2); else the first out on a recount, fixed changes first, then
/// High, Low, Jack, Game (rule 3; the same counting down [R]). `None`: play on.
pub fn decide(
    agreements: &Agreements,
    c: &Contract,
    scored: &Scored,
    order: &[&str],
) -> Option<Win> {
    let win = |winner: &str, decision| {
        Some(Win {
            winner: winner.to_string(),
            decision,
        })
    };
    if let Some(s) = &scored.smudge
        && s.wins
    {
        return win(&s.player, Decision::Smudge);
    }
    let after = &scored.after;
    if agreements.is_out(after.get(&c.pitcher)) {
        return win(&c.pitcher, Decision::PitcherOut);
    }
    let out: Vec<&str> = after
        .iter()
        .filter(|(_, s)| agreements.is_out(*s))
        .map(|(p, _)| p)
        .collect();
    match out.as_slice() {
        [] => None,
        [only] => win(only, Decision::OnlyOneOut),
        _ => Some(count_order(agreements, scored, &out, order)),
    }
}

/// Rule 3: recounts the hand from `scored.counted_from`; returns the first of `out` out.
fn count_order(agreements: &Agreements, scored: &Scored, out: &[&str], order: &[&str]) -> Win {
    let mut running = scored.counted_from.clone();
    for (p, d) in &scored.parts.fixed {
        running.add(p, *d);
    }
    let already: Vec<&str> = out
        .iter()
        .copied()
        .filter(|p| agreements.is_out(running.get(p)))
        .collect();
    match already.as_slice() {
        [] => {}
        several => {
            return Win {
                winner: furthest_out(agreements, &scored.after, several, order),
                decision: Decision::CountOrderRevoke,
            };
        }
    }
    for (point, taker) in &scored.parts.counted {
        running.add(taker, scored.parts.step);
        if out.contains(&taker.as_str()) && agreements.is_out(running.get(taker)) {
            return Win {
                winner: taker.clone(),
                decision: Decision::CountOrder(*point),
            };
        }
    }
    // Unreachable: everyone in `out` is out once the whole hand is counted.
    Win {
        winner: furthest_out(agreements, &scored.after, out, order),
        decision: Decision::CountOrderRevoke,
    }
}

/// The one of `candidates` furthest past the goal; on equal scores the first in `order`.
fn furthest_out(
    agreements: &Agreements,
    after: &Scores,
    candidates: &[&str],
    order: &[&str],
) -> String {
    let toward = if agreements.counts_down() { -1 } else { 1 };
    let seat = |p: &str| order.iter().position(|o| *o == p).unwrap_or(usize::MAX);
    candidates
        .iter()
        .copied()
        .min_by_key(|p| (-toward * after.get(p), seat(p)))
        .unwrap_or_default()
        .to_string()
}

/// A finished game's settlement (rules §1.4; S001): each pays `(winner − player) × stake`,
/// mirrored counting down ([R] §3 item 17), a negative difference as agreed ([R] §3 item
/// 15). Returns postings, words and steps. Errors name `agreements.stake`.
pub fn settle(
    agreements: &Agreements,
    final_scores: &Scores,
    win: &Win,
) -> Result<(Postings, String, Vec<Step>), RuleError> {
    let w = &win.winner;
    let ws = final_scores.get(w);
    let stake = agreements.stake;
    let mut postings = Postings::new();
    let mut items = vec![format!(
        "Game over: {w} wins at {} {}",
        num(ws),
        win.how(agreements)
    )];
    let mut steps = Vec::new();
    if stake.is_zero() {
        items.push("points only, no stake".into());
    } else {
        steps.push(Step::Stake {
            amount: stake,
            per: "point of difference".into(),
        });
    }
    for (player, s) in final_scores.iter() {
        if player == w {
            continue;
        }
        let (high, low) = if agreements.counts_down() {
            (s, ws)
        } else {
            (ws, s)
        };
        let amount = difference_money(high - low, stake)?;
        if stake.is_zero() {
            continue;
        }
        items.push(pay_difference(
            agreements,
            (w, player),
            (high, low),
            amount,
            (&mut postings, &mut steps),
        ));
    }
    Ok((postings, items.join("; "), steps))
}

/// `diff` points at `stake`, within the money limit. Errors name `agreements.stake`.
fn difference_money(diff: i64, stake: Money) -> Result<Money, RuleError> {
    stake
        .cents()
        .checked_mul(diff.abs())
        .map(Money::from_cents)
        .filter(|amount| amount.within_limit())
        .ok_or_else(|| {
            RuleError::new(
                "agreements.stake",
                format!(
                    "{diff} points × {stake} is beyond {}, the largest amount the ledger keeps",
                    Money::LIMIT
                ),
            )
        })
}

/// A score taken away, in brackets when below zero: "13 − (−3)", never "13 − −3".
fn less(n: i64) -> String {
    if n < 0 {
        format!("({})", num(n))
    } else {
        num(n)
    }
}

/// One player's difference paid to winner `w` (rules §1.4), negative as agreed ([R] item 15).
fn pay_difference(
    agreements: &Agreements,
    (w, player): (&str, &str),
    (high, low): (i64, i64),
    amount: Money,
    (postings, steps): (&mut Postings, &mut Vec<Step>),
) -> String {
    let stake = agreements.stake;
    let diff = high - low;
    let sum = format!("{} − {} = {}", num(high), less(low), points(diff));
    match diff {
        0 => format!("{player} pays nothing (level with {w})"),
        d if d > 0 => {
            postings.transfer(player, w, amount);
            steps.push(Step::Pays {
                from: player.to_string(),
                to: w.to_string(),
                amount,
                why: sum.clone(),
            });
            format!("{player} pays {amount} ({sum} × {stake})")
        }
        _ => match agreements.negative_difference {
            NegativeDifference::ClampZero => format!(
                "{player} pays nothing ({} − {} is below zero, clamped)",
                num(high),
                less(low)
            ),
            NegativeDifference::Pay => {
                postings.transfer(w, player, amount);
                steps.push(Step::Pays {
                    from: w.to_string(),
                    to: player.to_string(),
                    amount,
                    why: format!("{sum}, the negative difference"),
                });
                format!(
                    "{w} pays {player} {amount} ({sum} × {stake}, the negative difference is paid)"
                )
            }
        },
    }
}

fn points(n: i64) -> String {
    if n.abs() == 1 {
        format!("{} point", num(n))
    } else {
        format!("{} points", num(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger;
    use crate::rules::auction_pitch::hand::test_contract as contract;
    use crate::rules::auction_pitch::score::score_hand;
    use serde_json::{Value, json};

    const ORDER: [&str; 4] = ["A", "B", "C", "D"];

    fn seated() -> Vec<String> {
        ORDER.map(String::from).to_vec()
    }

    fn agreements(v: Value) -> Agreements {
        Agreements::read(v.as_object().unwrap()).unwrap()
    }

    fn scores(v: [i64; 4]) -> Scores {
        let mut s = Scores::fresh(&seated(), 0);
        for (p, x) in ORDER.iter().zip(v) {
            s.set(p, x);
        }
        s
    }

    /// Scores the hand from `before` and decides; returns the winner and `decided_by`.
    fn decided(a: &Agreements, before: [i64; 4], c: &Contract) -> Option<(String, String)> {
        let scored = score_hand(a, &seated(), &scores(before), c);
        decide(a, c, &scored, &ORDER).map(|w| (w.winner.clone(), w.decided_by(a)))
    }

    fn won(w: &str, by: &str) -> Option<(String, String)> {
        Some((w.into(), by.into()))
    }

    #[test]
    fn the_pitcher_out_wins_whoever_else_is_out() {
        // Golden PT-04-a: A (pitcher) at 11, B at 12.
        let a = agreements(json!({}));
        let c = contract("A", 2, "A B B A", None);
        assert_eq!(decided(&a, [9, 10, 4, 5], &c), won("A", "pitcher_out"));
        // The pitcher alone out is still rule 1.
        assert_eq!(decided(&a, [9, 0, 0, 0], &c), won("A", "pitcher_out"));
    }

    #[test]
    fn the_only_player_out_wins_and_nobody_out_plays_on() {
        let a = agreements(json!({}));
        let c = contract("A", 2, "A C C D", None);
        assert_eq!(decided(&a, [5, 10, 9, 3], &c), won("C", "only_one_out"));
        assert_eq!(decided(&a, [5, 10, 8, 3], &c), None);
        // A set-back pitcher never goes out; the other player does.
        let c = contract("A", 3, "B A C D", None);
        assert_eq!(decided(&a, [9, 10, 0, 0], &c), won("B", "only_one_out"));
    }

    #[test]
    fn two_out_are_separated_by_high_low_jack_game() {
        // Golden PT-05: B 10 + High, Game; C 10 + Low, Jack: High takes B out first.
        let a = agreements(json!({}));
        let c = contract("A", 2, "B C C B", None);
        assert_eq!(
            decided(&a, [5, 10, 10, 3], &c),
            won("B", "count_order:high")
        );
        // C needs only Low, B needs High and Game: Low comes before Game.
        assert_eq!(decided(&a, [5, 9, 10, 3], &c), won("C", "count_order:low"));
        let c = contract("A", 2, "A B C D", None);
        assert_eq!(
            decided(&a, [0, 9, 10, 10], &c),
            won("C", "count_order:jack")
        );
        // Game is counted last, so it never decides: any other player out got there sooner.
        let c = contract("A", 4, "B C B D", None);
        assert_eq!(decided(&a, [0, 9, 8, 10], &c), won("B", "count_order:jack"));
    }

    #[test]
    fn a_revoke_bonus_counts_before_the_points() {
        let a = agreements(json!({}));
        // D revokes on A's bid of 2: B 9 + 2 = 11 at once; C 10 + 2 too: tie broken by the
        // score furthest out (C 12 + Jack = 13 against B 11 + Low = 12).
        let c = contract("A", 2, "A B C A", Some("D"));
        assert_eq!(
            decided(&a, [0, 9, 10, 0], &c),
            won("C", "count_order:revoke")
        );
        // Only B carried out by the bonus; C needs Jack.
        assert_eq!(
            decided(&a, [0, 9, 8, 0], &c),
            won("B", "count_order:revoke")
        );
        // The pitcher gains the bid too and wins first.
        assert_eq!(decided(&a, [9, 9, 10, 0], &c), won("A", "pitcher_out"));
        // Equal scores: nearest the dealer's left (A, B, C, D here).
        let c = contract("A", 2, "A A A A", Some("D"));
        assert_eq!(
            decided(&a, [0, 10, 10, 0], &c),
            won("B", "count_order:revoke")
        );
    }

    #[test]
    fn smudges_win_at_once_or_lift_the_hole_to_four() {
        let now = agreements(json!({"variant": "smudge"}));
        let c = contract("A", 1, "B B B B", None);
        assert_eq!(decided(&now, [3, 2, 8, 0], &c), won("B", "smudge"));
        assert_eq!(decided(&now, [3, -5, 8, 0], &c), won("B", "smudge"));
        let hole = agreements(json!({"variant": "smudge", "smudge_rule": "not_in_hole"}));
        assert_eq!(decided(&hole, [3, -5, 8, 0], &c), None);
        assert_eq!(decided(&hole, [3, 2, 8, 0], &c), won("B", "smudge"));
        // A smudge in the standard variant is just four points.
        let standard = agreements(json!({}));
        assert_eq!(decided(&standard, [3, 2, 8, 0], &c), None);
        assert_eq!(
            decided(&standard, [3, 7, 8, 0], &c),
            won("B", "only_one_out")
        );
    }

    #[test]
    fn count_down_goes_out_at_zero_with_the_same_precedence() {
        let a = agreements(json!({"variant": "countdown"}));
        let c = contract("A", 2, "A B A A", None);
        assert_eq!(decided(&a, [3, 2, 7, 7], &c), won("A", "pitcher_out"));
        assert_eq!(decided(&a, [4, 1, 7, 7], &c), won("B", "countdown"));
        assert_eq!(decided(&a, [4, 2, 7, 7], &c), None);
        // B and C both reach zero; counting down from 1 and 2, High takes B there first.
        let c = contract("A", 2, "B C C B", None);
        assert_eq!(decided(&a, [7, 1, 2, 7], &c), won("B", "count_order:high"));
        assert_eq!(decided(&a, [7, 2, 2, 7], &c), won("C", "count_order:jack"));
    }

    fn settled(a: &Agreements, fin: [i64; 4], winner: &str) -> (Vec<(String, i64)>, String) {
        let win = Win {
            winner: winner.into(),
            decision: Decision::PitcherOut,
        };
        let (p, why, steps) = settle(a, &scores(fin), &win).unwrap();
        let v = p.into_vec();
        assert!(ledger::sum(&v).is_zero());
        // The steps explain every cent: their payments net to the postings.
        for n in ORDER {
            let by_steps: i64 = steps
                .iter()
                .map(|s| match s {
                    Step::Pays { from, amount, .. } if from == n => -amount.cents(),
                    Step::Pays { to, amount, .. } if to == n => amount.cents(),
                    _ => 0,
                })
                .sum();
            let posted: i64 = v
                .iter()
                .filter(|x| x.account == n)
                .map(|x| x.amount.cents())
                .sum();
            assert_eq!(by_steps, posted, "{n}: {steps:?}");
        }
        let by = ORDER
            .iter()
            .map(|n| {
                let cents = v
                    .iter()
                    .filter(|x| x.account == *n)
                    .map(|x| x.amount.cents())
                    .sum();
                (n.to_string(), cents)
            })
            .collect();
        (by, why)
    }

    fn cents(v: [i64; 4]) -> Vec<(String, i64)> {
        ORDER.iter().map(|n| n.to_string()).zip(v).collect()
    }

    #[test]
    fn the_winner_collects_the_difference_clamped() {
        // Golden PT-04-a: A 11, B 12, C 4, D 5 at 0.05.
        let a = agreements(json!({"stake": "0.05"}));
        let (by, why) = settled(&a, [11, 12, 4, 5], "A");
        assert_eq!(by, cents([65, 0, -35, -30]));
        assert_eq!(
            why,
            "Game over: A wins at 11 as pitcher; B pays nothing (11 − 12 is below zero, clamped); C pays 0.35 (11 − 4 = 7 points × 0.05); D pays 0.30 (11 − 5 = 6 points × 0.05)"
        );
        // Players in the hole pay more.
        let (by, _) = settled(&a, [11, -3, 0, 11], "A");
        assert_eq!(by, cents([125, -70, -55, 0]));
    }

    #[test]
    fn a_negative_difference_is_paid_when_agreed() {
        let a = agreements(json!({"stake": "0.05", "negative_difference": "pay"}));
        let (by, why) = settled(&a, [11, 12, 4, 5], "A");
        assert_eq!(by, cents([60, 5, -35, -30]));
        assert!(
            why.contains(
                "A pays B 0.05 (11 − 12 = −1 point × 0.05, the negative difference is paid)"
            ),
            "{why}"
        );
    }

    #[test]
    fn count_down_settles_the_mirror_difference() {
        let a = agreements(json!({"stake": "0.10", "variant": "countdown"}));
        let (by, why) = settled(&a, [0, 3, 9, -1], "A");
        assert_eq!(by, cents([120, -30, -90, 0]));
        assert!(
            why.contains("B pays 0.30 (3 − 0 = 3 points × 0.10)"),
            "{why}"
        );
        assert!(
            why.contains("D pays nothing (−1 − 0 is below zero, clamped)"),
            "{why}"
        );
        let pay = agreements(
            json!({"stake": "0.10", "variant": "countdown", "negative_difference": "pay"}),
        );
        let (by, _) = settled(&pay, [0, 3, 9, -1], "A");
        assert_eq!(by, cents([110, -30, -90, 10]));
    }

    #[test]
    fn no_stake_moves_no_money() {
        let a = agreements(json!({}));
        let (by, why) = settled(&a, [11, 2, 3, 4], "A");
        assert_eq!(by, cents([0; 4]));
        assert_eq!(
            why,
            "Game over: A wins at 11 as pitcher; points only, no stake"
        );
    }
}
