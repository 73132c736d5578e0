//! What a contract pays (rules §1.1) and does to the kitty (rules §1.2 rules 3–5 and 9;
//! §1.3). Pure.

use super::agreements::{Agreements, KITTY_BID, KittyKind};
use super::hand::{Contract, Outcome};
use crate::ledger::{KITTY, Postings};
use crate::money::Money;
use crate::rules::{Step, Suit};

/// The trump multiplier and its words: spades 2, hearts 3 as agreed, else 1 (rules §1.1).
pub fn trump_multiplier(agreements: &Agreements, trump: Suit) -> (i64, Option<&'static str>) {
    match trump {
        Suit::Spades if agreements.spades_double => (2, Some("2 (spades)")),
        Suit::Hearts if agreements.hearts_triple => (3, Some("3 (hearts)")),
        _ => (1, None),
    }
}

/// How many kitties a failed 350+ bidder antes (rules §1.2 rule 5): 2, or the agreed multiple.
pub fn kitty_fail_multiplier(agreements: &Agreements, trump: Suit) -> i64 {
    match trump {
        Suit::Spades => agreements.pot.spades_fail_multiplier,
        Suit::Hearts if agreements.hearts_triple => agreements.pot.hearts_fail_multiplier,
        _ => 2,
    }
}

/// The money of one contract: the others against the bidder, plus the kitty on 350+;
/// `kitty` is its size, not its balance. Returns postings, words and steps.
pub fn settle(
    agreements: &Agreements,
    seated: &[String],
    kitty: Money,
    c: &Contract,
) -> (Postings, String, Vec<Step>) {
    let (per_player, factors, mut steps) = per_player(agreements, c);
    let mut postings = Postings::new();
    for other in seated.iter().filter(|p| **p != c.bidder) {
        if c.outcome.bidder_wins() {
            pay(&mut postings, &mut steps, other, &c.bidder, per_player, c);
        } else {
            pay(&mut postings, &mut steps, &c.bidder, other, per_player, c);
        }
    }
    let whom = if seated.len() == 4 {
        format!("each other player (dealer {} included)", c.dealer)
    } else {
        "each opponent".to_string()
    };
    let direction = if c.outcome.bidder_wins() {
        "from"
    } else {
        "to"
    };
    let mut why = format!(
        "{}: {} = {per_player} {direction} {whom}",
        headline(c),
        factors.join(" × ")
    );
    let (t, _) = trump_multiplier(agreements, c.trump);
    if c.outcome == Outcome::ConcededBeforeLead && t > 1 {
        why.push_str(" (single bete; the suit does not count before the lead)");
    }
    if c.bid >= KITTY_BID {
        settle_kitty(
            agreements,
            seated,
            kitty,
            c,
            per_player,
            (&mut postings, &mut why, &mut steps),
        );
    }
    (postings, why, steps)
}

/// What each other player pays or gets on `c` (rules §1.1): units × trump × 2 for double
/// bete × stake (a concession before the lead: single bete, suit ignored).
fn per_player(agreements: &Agreements, c: &Contract) -> (Money, Vec<String>, Vec<Step>) {
    let units = agreements.units_table.units(c.bid).unwrap_or(0);
    let single = agreements.stake * units;
    let (t, t_words) = trump_multiplier(agreements, c.trump);
    // The table row, to check against the agreements; its source goes in the step.
    let mut factors = vec![format!(
        "{units} units ({} table {})",
        agreements.units_table.name,
        agreements.units_table.band_label(c.bid),
    )];
    let mut steps = vec![Step::TableRow {
        table: format!("{} units", agreements.units_table.name),
        row: agreements.units_table.band_label(c.bid),
        gives: format!("{units} units"),
        source: agreements.units_table.source().to_string(),
    }];
    let trump_step = Step::Times {
        factor: t,
        why: format!("{} trump (rules §1.1)", c.trump.name()),
    };
    let per_player = match c.outcome {
        o if o.bidder_wins() => {
            factors.extend(t_words.map(String::from));
            steps.extend((t > 1).then_some(trump_step));
            single * t
        }
        Outcome::ConcededBeforeLead => single,
        _ => {
            factors.extend(t_words.map(String::from));
            factors.push("2 (double bete)".into());
            steps.extend((t > 1).then_some(trump_step));
            steps.push(Step::Times {
                factor: 2,
                why: "double bete (rules §1.1)".into(),
            });
            single * t * 2
        }
    };
    factors.push(agreements.stake.to_string());
    steps.push(Step::Stake {
        amount: agreements.stake,
        per: "unit".into(),
    });
    (per_player, factors, steps)
}

/// One payment on `c`, posted and shown as a step with the outcome's words.
fn pay(
    postings: &mut Postings,
    steps: &mut Vec<Step>,
    from: &str,
    to: &str,
    amount: Money,
    c: &Contract,
) {
    postings.transfer(from, to, amount);
    steps.push(Step::Pays {
        from: from.to_string(),
        to: to.to_string(),
        amount,
        why: c.outcome.words().to_string(),
    });
}

/// The kitty's part in a 350+ contract: an account (rules §1.3) or a [`pot`] (rules §1.2).
fn settle_kitty(
    agreements: &Agreements,
    seated: &[String],
    kitty: Money,
    c: &Contract,
    per_player: Money,
    (postings, why, steps): (&mut Postings, &mut String, &mut Vec<Step>),
) {
    match agreements.kitty {
        KittyKind::None => {}
        KittyKind::Account => {
            if c.outcome.bidder_wins() {
                pay(postings, steps, KITTY, &c.bidder, per_player, c);
            } else {
                pay(postings, steps, &c.bidder, KITTY, per_player, c);
            }
            why.push_str(&format!("; the kitty settles like a player, {per_player}"));
        }
        KittyKind::Pot => {
            let (words, rule) = pot(agreements, seated, kitty, c, postings);
            why.push_str(&words);
            steps.push(Step::Kitty {
                rule: rule.into(),
                before: kitty,
                after: kitty + postings.net(KITTY),
            });
        }
    }
}

/// "Ann bid 350 in hearts and made it" and the like.
fn headline(c: &Contract) -> String {
    let contract = format!("{} in {}", c.bid, c.trump.name());
    let derived = match (c.derived, c.meld, c.counters) {
        (true, Some(m), Some(k)) => format!(" (meld {m} + counters {k} = {})", m + k),
        _ => String::new(),
    };
    match c.outcome {
        Outcome::Made => format!("{} bid {contract} and made it{derived}", c.bidder),
        Outcome::Failed => format!("{} bid {contract} and failed{derived}", c.bidder),
        Outcome::ConcededBeforeLead => format!("{} conceded {contract} before the lead", c.bidder),
        Outcome::ConcededAfterLead => format!(
            "{} conceded {contract} after the lead, as if failed",
            c.bidder
        ),
        Outcome::OpponentsConceded => format!("The opponents conceded {}'s {contract}", c.bidder),
        Outcome::BidderRenege => format!("{} reneged on {contract}, as if failed", c.bidder),
        Outcome::DefenderRenege => format!(
            "{} reneged against {}'s {contract}, binding on every opponent, as if made",
            c.renege_by.as_deref().unwrap_or("a defender"),
            c.bidder
        ),
    }
}

/// The pot on a 350+ bid (rules §1.2): made collects it (rule 3), conceded antes it (4),
/// failed antes the multiple (5); with `bidder_cash` he plays for what it covers (rule 9,
/// [R] `P = min(kitty, (cash − owed) / fail multiplier)`, floored).
fn pot(
    agreements: &Agreements,
    seated: &[String],
    kitty: Money,
    c: &Contract,
    postings: &mut Postings,
) -> (String, &'static str) {
    let fail_multiplier = kitty_fail_multiplier(agreements, c.trump);
    let (t, _) = trump_multiplier(agreements, c.trump);
    let single = agreements.stake * agreements.units_table.units(c.bid).unwrap_or(0);
    let owed_if_failed = single * t * 2 * (seated.len() as i64 - 1);
    let (stake_in_kitty, cover) = match c.bidder_cash {
        Some(cash) if kitty.cents() > 0 => {
            let coverable = (cash - owed_if_failed)
                .divide(fail_multiplier)
                .0
                .max(Money::ZERO);
            if coverable < kitty {
                (
                    coverable,
                    format!(" (cover rule 9: his {cash} covers {coverable} of the {kitty} kitty)"),
                )
            } else {
                (kitty, String::new())
            }
        }
        _ => (kitty.max(Money::ZERO), String::new()),
    };
    match c.outcome {
        o if o.bidder_wins() => {
            postings.transfer(KITTY, &c.bidder, stake_in_kitty);
            let mut why = format!("; kitty rule 3: takes the kitty, {stake_in_kitty}{cover}");
            let emptied = stake_in_kitty == kitty && !kitty.is_zero();
            if emptied && agreements.pot.reante_after_win {
                let ante = agreements.ante();
                for p in seated {
                    postings.transfer(p, KITTY, ante);
                }
                why.push_str(&format!("; everyone antes {ante} again"));
            }
            (why, "kitty rule 3: the bidder takes the kitty")
        }
        Outcome::ConcededBeforeLead => {
            postings.transfer(&c.bidder, KITTY, stake_in_kitty);
            (
                format!(
                    "; kitty rule 4: antes an amount equal to the kitty, {stake_in_kitty}{cover}"
                ),
                "kitty rule 4: the bidder antes the kitty's amount",
            )
        }
        _ => {
            let amount = stake_in_kitty * fail_multiplier;
            postings.transfer(&c.bidder, KITTY, amount);
            let times = match fail_multiplier {
                2 => "twice".to_string(),
                n => format!("{n} times"),
            };
            (
                format!("; kitty rule 5: {times} the kitty, {amount}{cover}"),
                "kitty rule 5: the bidder antes a multiple of the kitty",
            )
        }
    }
}
