//! The betting record of a poker hand (`rounds`), checked against the limits (S004, rules
//! §1.11, §3 item 33) and the contributions. Each round lists actions in turn order:
//! `[player, "check"]`, `[player, "bet", amount]`, `[player, "call"]`, `[player, "raise",
//! amount]` (over the call) or `[player, "fold"]`; amounts are money strings.

use serde_json::Value;

use super::agreements::Agreements;
use super::hand::{money, seat_of, units};
use crate::money::Money;
use crate::rules::{Field, RuleError};

/// One betting action, read.
enum Action {
    Check,
    Bet(i64),
    Call,
    Raise(i64),
    Fold,
}

fn read_action(
    raw: &Value,
    players: &[String],
    unit: Money,
    field: &str,
) -> Result<(usize, Action), RuleError> {
    let items = raw.as_array().ok_or_else(|| {
        RuleError::new(
            field,
            "an action is [player, \"check\"], [player, \"bet\", amount], [player, \"call\"], [player, \"raise\", amount] or [player, \"fold\"]",
        )
    })?;
    let name = items.first().and_then(Value::as_str).unwrap_or("");
    let seat = seat_of(players, name).ok_or_else(|| {
        RuleError::new(
            field,
            format!("\"{name}\" is not a player seated at this table"),
        )
    })?;
    let kind = items.get(1).and_then(Value::as_str).unwrap_or("");
    let amount = items.get(2);
    let needs_amount = matches!(kind, "bet" | "raise");
    if needs_amount != amount.is_some() || items.len() > 3 {
        return Err(RuleError::new(
            field,
            if needs_amount {
                format!("a {kind} says how much: [{name}, \"{kind}\", \"0.10\"]")
            } else {
                format!("\"{kind}\" takes no amount")
            },
        ));
    }
    let amount = match amount {
        Some(v) => {
            let u = units(v, unit, &Field::from(field))?;
            if u == 0 {
                return Err(RuleError::new(
                    field,
                    format!("a {kind} of nothing is a check or a call"),
                ));
            }
            u
        }
        None => 0,
    };
    let action = match kind {
        "check" => Action::Check,
        "bet" => Action::Bet(amount),
        "call" => Action::Call,
        "raise" => Action::Raise(amount),
        "fold" => Action::Fold,
        other => {
            return Err(RuleError::new(
                field,
                format!("\"{other}\" is not a betting action: check, bet, call, raise or fold"),
            )
            .rule("S004"));
        }
    };
    Ok((seat, action))
}

/// Checks `rounds` against the limits and the contributions (S004, rules §1.11, §3 item
/// 33). Per round: check only when nothing is owed; a bet only first, at most
/// `max_first_bet`; call only when owing (all-in may call short); raise only after a bet,
/// at most `max_raise`, the round's raises within `max_raises_total_per_round`; nobody acts
/// after folding or going all-in; at the end everyone in has matched. Afterwards the folds
/// equal `folded` and ante + bets equal each contribution. Turn order is not checked (draw
/// and stud differ, S004).
///
/// Errors name `rounds[r][a]` (from 0) or `contributions.<player>`.
pub fn check_rounds(
    rounds: &[Vec<Value>],
    hand: InHand<'_>,
    agreements: &Agreements,
) -> Result<(), RuleError> {
    let players = hand.players;
    let unit = agreements.unit;
    let to_units = |m: Option<Money>| m.map(|m| m.cents() / unit.cents());
    let mut betting = Betting {
        hand,
        unit,
        ante: to_units(agreements.ante).unwrap_or(0),
        max_first: to_units(agreements.max_first_bet),
        max_raise: to_units(agreements.max_raise),
        max_total: to_units(agreements.max_raises_total),
        paid: vec![0; players.len()],
        out: vec![false; players.len()],
    };
    for (r, round) in rounds.iter().enumerate() {
        let mut now = Round {
            put: vec![0; players.len()],
            highest: 0,
            raised: 0,
        };
        for (a, raw) in round.iter().enumerate() {
            let field = format!("rounds[{r}][{a}]");
            let (seat, action) = read_action(raw, players, unit, &field)?;
            betting.act(&mut now, &field, seat, action)?;
        }
        betting.round_ends(r, &now)?;
    }
    betting.totals()
}

/// Who is in one hand and what each put in (units), per seat (rules §1.11, session-format).
#[derive(Debug, Clone, Copy)]
pub struct InHand<'a> {
    /// The players, in seat order.
    pub players: &'a [String],
    /// What each put in, in units of the agreed unit.
    pub contributions: &'a [i64],
    /// Whether each folded.
    pub folded: &'a [bool],
    /// Whether each went all-in.
    pub all_in: &'a [bool],
}

/// The betting of one hand as checked: limits in units (`None`: none) and money so far.
struct Betting<'a> {
    hand: InHand<'a>,
    unit: Money,
    ante: i64,
    max_first: Option<i64>,
    max_raise: Option<i64>,
    max_total: Option<i64>,
    paid: Vec<i64>,
    out: Vec<bool>,
}

/// One betting round: each player's money in it, the highest, and the raises so far (units).
struct Round {
    put: Vec<i64>,
    highest: i64,
    raised: i64,
}

impl Betting<'_> {
    fn name(&self, seat: usize) -> &str {
        self.hand.players.get(seat).map_or("", String::as_str)
    }

    fn at(&self, seat: usize) -> i64 {
        self.hand.contributions.get(seat).copied().unwrap_or(0)
    }

    /// What `seat` can put in the rounds: his contribution less the ante he paid.
    fn cap(&self, seat: usize) -> i64 {
        if self.at(seat) > 0 {
            self.at(seat) - self.ante
        } else {
            0
        }
    }

    /// One action (`field`) of `seat` in round `now`. Errors name `field`.
    fn act(
        &mut self,
        now: &mut Round,
        field: &str,
        seat: usize,
        action: Action,
    ) -> Result<(), RuleError> {
        let who = self.name(seat).to_string();
        if self.out.get(seat) == Some(&true) {
            return Err(RuleError::new(
                field,
                format!("{who} has folded and cannot act again"),
            ));
        }
        let is_all_in = self.hand.all_in.get(seat) == Some(&true);
        let so_far = self.paid.get(seat).copied().unwrap_or(0);
        if is_all_in && so_far >= self.cap(seat) && !matches!(action, Action::Fold) {
            return Err(RuleError::new(
                field,
                format!("{who} is all-in already: he has nothing left to bet"),
            ));
        }
        let owed = now.highest - now.put.get(seat).copied().unwrap_or(0);
        let put = match action {
            Action::Check | Action::Bet(_) => self.open(now, field, &who, owed, action)?,
            Action::Call => {
                if owed <= 0 {
                    return Err(RuleError::new(
                        field,
                        format!("{who} owes nothing: that is a check, not a call"),
                    )
                    .rule("S004"));
                }
                if is_all_in {
                    owed.min(self.cap(seat) - so_far)
                } else {
                    owed
                }
            }
            Action::Raise(x) => self.raise(now, field, &who, owed, x)?,
            Action::Fold => {
                if self.hand.folded.get(seat) != Some(&true) {
                    return Err(RuleError::new(
                        field,
                        format!("{who} folds here but is not listed in folded"),
                    ));
                }
                if let Some(o) = self.out.get_mut(seat) {
                    *o = true;
                }
                0
            }
        };
        if let Some(m) = now.put.get_mut(seat) {
            *m = m.saturating_add(put);
            now.highest = now.highest.max(*m);
        }
        if let Some(p) = self.paid.get_mut(seat) {
            *p = p.saturating_add(put);
        }
        Ok(())
    }

    /// A check (nothing owed) or the round's first bet (to `max_first_bet`, S004).
    fn open(
        &self,
        now: &Round,
        field: &str,
        who: &str,
        owed: i64,
        action: Action,
    ) -> Result<i64, RuleError> {
        let unit = self.unit;
        match action {
            Action::Bet(b) => {
                if now.highest > 0 {
                    return Err(RuleError::new(
                        field,
                        format!(
                            "there is already a bet of {} this round: {who} may call, raise or fold",
                            money(now.highest, unit)
                        ),
                    ));
                }
                if let Some(limit) = self.max_first.filter(|l| b > *l) {
                    return Err(RuleError::new(
                        field,
                        format!("a first bet of {} is over the limit of {} (the agreed largest first bet)", money(b, unit), money(limit, unit)),
                    )
                    .rule("S004"));
                }
                Ok(b)
            }
            _ if owed > 0 => Err(RuleError::new(
                field,
                format!(
                    "{who} owes {} to the pot: he may call, raise or fold, not check",
                    money(owed, unit)
                ),
            )
            .rule("S004")),
            _ => Ok(0),
        }
    }

    /// A raise over the call: after a bet, within the limits (S004, rules §3 item 33).
    fn raise(
        &self,
        now: &mut Round,
        field: &str,
        who: &str,
        owed: i64,
        x: i64,
    ) -> Result<i64, RuleError> {
        let unit = self.unit;
        if now.highest == 0 {
            return Err(RuleError::new(
                field,
                format!("nobody has bet this round: {who} may bet, not raise"),
            )
            .rule("S004"));
        }
        if let Some(limit) = self.max_raise.filter(|l| x > *l) {
            return Err(RuleError::new(
                field,
                format!(
                    "a raise of {} is over the limit of {} (the agreed largest raise)",
                    money(x, unit),
                    money(limit, unit)
                ),
            )
            .rule("S004"));
        }
        now.raised = now.raised.saturating_add(x);
        if let Some(limit) = self.max_total.filter(|l| now.raised > *l) {
            return Err(RuleError::new(
                field,
                format!(
                    "the raises of this round come to {}, over the limit of {} (the agreed most raised in a round; the opening bet does not count)",
                    money(now.raised, unit),
                    money(limit, unit)
                ),
            )
            .rule("rules §3 item 33"));
        }
        Ok(owed.saturating_add(x))
    }

    /// At the end of round `r` everyone in has matched (S004). Errors name `rounds[r]`.
    fn round_ends(&self, r: usize, now: &Round) -> Result<(), RuleError> {
        for seat in 0..self.hand.players.len() {
            let done = self.hand.all_in.get(seat) == Some(&true)
                && self.paid.get(seat).copied().unwrap_or(0) >= self.cap(seat);
            let mine = now.put.get(seat).copied().unwrap_or(0);
            if self.out.get(seat) == Some(&false)
                && !done
                && self.at(seat) > 0
                && mine < now.highest
            {
                return Err(RuleError::new(
                    format!("rounds[{r}]"),
                    format!(
                        "the round ends with {} owing {}: a round ends only when everyone has called or folded after the last bet or raise",
                        self.name(seat),
                        money(now.highest - mine, self.unit)
                    ),
                )
                .rule("S004"));
            }
        }
        Ok(())
    }

    /// After the last round: folds equal `folded`; ante + bets equal each contribution.
    fn totals(&self) -> Result<(), RuleError> {
        let (ante, unit) = (self.ante, self.unit);
        for seat in 0..self.hand.players.len() {
            let who = self.name(seat);
            if self.hand.folded.get(seat) == Some(&true) && self.out.get(seat) == Some(&false) {
                return Err(RuleError::new(
                    "rounds",
                    format!("{who} is listed as folded but never folds in the betting"),
                ));
            }
            let p = self.paid.get(seat).copied().unwrap_or(0);
            let c = self.at(seat);
            let expected = if c == 0 && p == 0 {
                0
            } else {
                ante.saturating_add(p)
            };
            if expected != c {
                let ante_words = if ante > 0 {
                    format!("the ante {} + ", money(ante, unit))
                } else {
                    String::new()
                };
                return Err(RuleError::new(
                    Field::name("contributions").player(who),
                    format!(
                        "{who} put in {} but the betting says {ante_words}{} = {} (the ante plus his bets, calls and raises)",
                        money(c, unit),
                        money(p, unit),
                        money(expected, unit)
                    ),
                )
                .rule("session-format"));
            }
        }
        Ok(())
    }
}
