//! Auction Pinochle with widow (rules §1.1, Scarne S000), its kitty (rules §1.2) and the
//! kitty-account model with the classic table (rules §1.3, S002).
//!
//! Every hand is a complete game settled in money before the next deal; points above the
//! bid never change the payoff. With four seated the dealer sits out and still settles.

pub mod agreements;
pub mod form;
pub mod hand;
pub mod meld;
pub mod settle;
pub mod to_make;
pub mod units;

#[cfg(test)]
mod kitty_tests;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::agreements::{Agreements, KITTY_BID, KittyKind};
use self::hand::{Deal, WrittenHand};
use crate::ledger::{KITTY, Postings, split::equal_shares};
use crate::money::Money;
use crate::rules::fields;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Column, Contract, Ctx, GameInfo, Layout, Outcome, RuleError, SheetLine, Step, Table, Tally,
    Tone,
};

/// The registration of `auction_pinochle`.
pub static GAME: GameInfo = GameInfo::typed::<AuctionPinochle, form::Form>(
    ("auction_pinochle", "Auction Pinochle", "rules §1.1–1.3"),
    (3, 4),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD)
.with_to_make(to_make::to_make);

/// The most players seated at once: 3, or 4 with the dealer sitting out (rules §1.1).
const MOST_SEATED: usize = 4;

typed::events! {
    /// What happens in Auction Pinochle besides a payment and the close.
    pub enum Event {
        /// A deal, bid and settled, or thrown in (rules §1.1).
        "hand" => Hand(hand::WrittenHand),
        /// A player sits down (rules §1.2 kitty rule 6).
        "player_joins" => Joins(Joins),
        /// A player leaves the table (rules §1.2 kitty rule 6).
        "player_leaves" => Leaves(Leaves),
        /// The table agrees to divide the kitty (rules §1.2 kitty rule 7).
        "kitty_divide" => KittyDivide(KittyDivide),
    }
}

/// The engine of one Auction Pinochle session: agreements and kitty size (seating is in [`Ctx`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AuctionPinochle {
    agreements: Agreements,
    /// The kitty's size: what the rules put in less what they paid out (not the `KITTY`
    /// balance, which cash payments also move). Every kitty rule uses this.
    kitty: Money,
}

/// A `player_joins` as written: who sits down, after whom (`None`: at the end).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Joins {
    player: String,
    seat_after: Option<String>,
}

/// A `player_leaves` event as written: who leaves, and whether he left broke (kitty rule 6).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Leaves {
    player: String,
    #[serde(default)]
    broke: bool,
}

/// A `kitty_divide` event as written: nothing but its type (kitty rule 7).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KittyDivide {}

impl AuctionPinochle {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    fn pot(&self) -> bool {
        self.agreements.kitty == KittyKind::Pot
    }

    /// Every seated player antes once; the antes are added to the kitty's size.
    fn everyone_antes(&mut self, table: &Table, rule: &str) -> (Postings, Vec<Step>) {
        let ante = self.agreements.ante();
        let mut postings = Postings::new();
        let mut steps = Vec::new();
        for p in table.seated() {
            postings.transfer(p, KITTY, ante);
            steps.push(Step::Pays {
                from: p.clone(),
                to: KITTY.into(),
                amount: ante,
                why: "ante".into(),
            });
        }
        let (postings, kitty) = self.record_kitty(postings, rule);
        steps.push(kitty);
        (postings, steps)
    }

    /// [`Self::record`], and the kitty's size before and after as a step under `rule`.
    fn record_kitty(&mut self, postings: Postings, rule: &str) -> (Postings, Step) {
        let before = self.kitty;
        let postings = self.record(postings);
        let step = Step::Kitty {
            rule: rule.into(),
            before,
            after: self.kitty,
        };
        (postings, step)
    }

    /// Adds what `postings` move through `KITTY` to its size; every list passes here once.
    fn record(&mut self, postings: Postings) -> Postings {
        self.kitty += postings.net(KITTY);
        postings
    }

    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let deal = hand::check(event, &self.agreements, ctx.table)?;
        let entry = match &deal {
            Deal::AllPassed { dealer } => {
                let line = SheetLine::titled("all passed").dealt_by(dealer);
                if self.pot() && self.agreements.pot.all_pass_ante {
                    let ante = self.agreements.ante();
                    let (postings, steps) =
                        self.everyone_antes(ctx.table, "kitty rule 2: everyone antes");
                    Outcome::new(
                        postings.into_vec(),
                        format!(
                            "All passed on {dealer}'s deal; kitty rule 2: everyone antes {ante}"
                        ),
                        line,
                    )
                    .with_steps(steps)
                } else {
                    Outcome::new(
                        Vec::new(),
                        format!("All passed on {dealer}'s deal; the hand is thrown in"),
                        line,
                    )
                }
            }
            Deal::Contract(contract) => {
                let (postings, why, steps) =
                    settle::settle(&self.agreements, ctx.table.seated(), self.kitty, contract);
                let kitty_rule = match self.agreements.kitty {
                    _ if contract.bid < KITTY_BID => None,
                    KittyKind::None => None,
                    KittyKind::Pot => Some("rules §1.2"),
                    KittyKind::Account => Some("rules §1.3"),
                };
                let outcome = Outcome::new(
                    self.record(postings).into_vec(),
                    why,
                    contract_line(contract),
                )
                .with_steps(steps)
                .citing("rules §1.1")
                .citing(self.agreements.units_table.source());
                match kitty_rule {
                    Some(rule) => outcome.citing(rule),
                    None => outcome,
                }
            }
        };
        let dealer = match &deal {
            Deal::AllPassed { dealer } => dealer,
            Deal::Contract(c) => &c.dealer,
        };
        ctx.table.dealt(dealer);
        Ok(entry)
    }

    /// Rule 8: a newcomer antes `kitty ÷ players seated`, floored (rules §1.2 [R]).
    fn joins(&mut self, ctx: &mut Ctx<'_>, j: Joins) -> Result<Outcome, RuleError> {
        let name = j.player.as_str();
        check_name(name).map_err(|m| RuleError::new("player", m))?;
        let everyone = ctx.table.everyone().iter().map(String::as_str);
        if let Some(same) = crate::rules::table::look_alike_of(name, everyone) {
            return Err(RuleError::new(
                "player",
                format!("{name} and {same} look like one name at the table; tell them apart"),
            ));
        }
        if ctx.table.is_seated(name) {
            return Err(RuleError::new(
                "player",
                format!("{name} is already seated"),
            ));
        }
        if ctx.table.is_gone_for_good(name) {
            return Err(RuleError::new(
                "player",
                format!("{name} took a broke player's share and quit for good"),
            )
            .rule("rules §1.2 rule 6"));
        }
        if ctx.table.seated().len() >= MOST_SEATED {
            return Err(
                RuleError::new("player", "Auction Pinochle seats at most 4 players")
                    .rule("rules §1.1"),
            );
        }
        if let Some(after) = &j.seat_after
            && !ctx.table.is_seated(after)
        {
            return Err(RuleError::new(
                "seat_after",
                format!("{after} is not seated at this table"),
            ));
        }
        let already = ctx.table.seated().len() as i64;
        let mut postings = Postings::new();
        let mut why = format!("{name} joins the table");
        let mut steps = Vec::new();
        if self.pot() {
            let (ante, _) = self.kitty.max(Money::ZERO).divide(already);
            postings.transfer(name, KITTY, ante);
            why.push_str(&format!(
                "; kitty rule 8: antes the kitty ÷ {already} players, {ante}"
            ));
            steps.push(Step::Pays {
                from: name.to_string(),
                to: KITTY.into(),
                amount: ante,
                why: format!("the kitty ÷ {already} players, to the cent"),
            });
        }
        ctx.table.seat(name, j.seat_after.as_deref());
        let line = SheetLine::titled(format!("{name} joins"));
        let (postings, kitty) = self.record_kitty(postings, "kitty rule 8: a newcomer antes");
        if self.pot() {
            steps.push(kitty);
        }
        Ok(Outcome::new(postings.into_vec(), why, line).with_steps(steps))
    }

    /// Rule 6: a broke player leaving takes `kitty ÷ players seated`, floored, for good.
    fn leaves(&mut self, ctx: &mut Ctx<'_>, l: Leaves) -> Result<Outcome, RuleError> {
        if !ctx.table.is_seated(&l.player) {
            return Err(RuleError::new(
                "player",
                format!("{} is not seated at this table", l.player),
            ));
        }
        let mut postings = Postings::new();
        let mut why = format!("{} leaves the table", l.player);
        let mut steps = Vec::new();
        if l.broke && self.pot() {
            let seated = ctx.table.seated().len() as i64;
            let (share, _) = self.kitty.max(Money::ZERO).divide(seated);
            postings.transfer(KITTY, &l.player, share);
            why = format!(
                "{} is broke and quits for good; kitty rule 6: takes the kitty ÷ {seated}, {share}",
                l.player
            );
            steps.push(Step::Pays {
                from: KITTY.into(),
                to: l.player.clone(),
                amount: share,
                why: format!("the kitty ÷ {seated} players, to the cent"),
            });
        }
        ctx.table.unseat(&l.player, l.broke);
        let title = if l.broke {
            format!("{} leaves broke", l.player)
        } else {
            format!("{} leaves", l.player)
        };
        let (postings, kitty) = self.record_kitty(postings, "kitty rule 6: a broke player's share");
        if !steps.is_empty() {
            steps.push(kitty);
        }
        Ok(Outcome::new(postings.into_vec(), why, SheetLine::titled(title)).with_steps(steps))
    }

    /// Shares the whole kitty equally among the seated (rule 7; a deficit alike, rules §1.3).
    fn share_out(&mut self, ctx: &Ctx<'_>, reason: &str, title: &str) -> Outcome {
        let kitty = self.kitty;
        let order = ctx.table.leftover_order();
        let mut postings = Postings::new();
        let shares = equal_shares(kitty, &order);
        for (player, share) in &shares {
            postings.transfer(KITTY, player, *share);
        }
        let (postings, kitty_step) = self.record_kitty(postings, reason);
        let verb = if kitty.cents() < 0 {
            "made good"
        } else {
            "shared"
        };
        let why = if kitty.is_zero() {
            format!("{reason}: the kitty is empty")
        } else {
            format!(
                "{reason}: the kitty's {kitty} is {verb} equally among {} players{}",
                order.len(),
                odd_cents(kitty, &order)
            )
        };
        let steps = if kitty.is_zero() {
            Vec::new()
        } else {
            vec![Step::shares(kitty, &shares), kitty_step]
        };
        Outcome::new(postings.into_vec(), why, SheetLine::titled(title)).with_steps(steps)
    }
}

/// The odd cents of a share in words (", the odd cent to C"; rules §3 item 2 [R]).
fn odd_cents(kitty: Money, order: &[&str]) -> String {
    let (_, left) = kitty.divide(order.len() as i64);
    let n = usize::try_from(left.cents().unsigned_abs()).unwrap_or(usize::MAX);
    match order.get(..n) {
        Some([]) | None => String::new(),
        Some([one]) => format!(", the odd cent to {one}"),
        Some(some) => format!(", the {n} odd cents one each to {}", some.join(" and ")),
    }
}

/// The sheet's line for a contract: bidder, bid, trump, made or set (rules §1.1).
fn contract_line(c: &hand::Contract) -> SheetLine {
    SheetLine {
        contract: Some(Contract {
            who: c.bidder.clone(),
            side: None,
            bid: c.bid,
            trump: Some(c.trump),
            result: c.outcome.row_words().to_string(),
            tone: if c.outcome.bidder_wins() {
                Tone::Good
            } else {
                Tone::Bad
            },
        }),
        ..SheetLine::default().dealt_by(&c.dealer)
    }
}

pub use crate::rules::check_name;

impl Game for AuctionPinochle {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Auction Pinochle";
    const ENTER: &'static str =
        "a hand, a payment, the close, a player joining or leaving, or the kitty divided";

    fn new(
        agreements: Agreements,
        _players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<AuctionPinochle, RuleError> {
        fields::no_opening_scores(
            opening_scores,
            "Auction Pinochle settles every hand in money, so there are no scores to carry in",
            Some("rules §1.1"),
        )?;
        Ok(AuctionPinochle {
            agreements,
            kitty: Money::ZERO,
        })
    }

    fn has_kitty(&self) -> bool {
        self.agreements.kitty != KittyKind::None
    }

    fn opening(&mut self, ctx: &mut Ctx<'_>) -> Option<Outcome> {
        if !self.pot() {
            return None;
        }
        let ante = self.agreements.ante();
        let (postings, steps) = self.everyone_antes(ctx.table, "kitty rule 1: everyone antes");
        Some(
            Outcome::new(
                postings.into_vec(),
                format!(
                    "Kitty rule 1: every player antes {ante}, the settlement of a {} bid",
                    self.agreements.units_table.lowest_bid()
                ),
                SheetLine::titled("opening ante"),
            )
            .with_steps(steps),
        )
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
            Event::Joins(joins) => self.joins(ctx, joins),
            Event::Leaves(leaves) => self.leaves(ctx, leaves),
            Event::KittyDivide(_) if self.has_kitty() => {
                Ok(self.share_out(ctx, "Kitty rule 7: divided by consent", "kitty divided"))
            }
            Event::KittyDivide(_) => Err(RuleError::new(
                "type",
                "this session has no kitty to divide (agreement kitty is \"none\")",
            )),
        }
    }

    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        if !self.has_kitty() {
            return Ok(Outcome::new(
                Vec::new(),
                "The sitting is closed",
                SheetLine::titled("closed"),
            ));
        }
        Ok(self.share_out(
            ctx,
            "The sitting is closed; kitty rule 7",
            "closed: kitty shared",
        ))
    }

    /// One money column per player who ever sat, in order of arrival, the kitty last.
    fn layout(&self, table: &Table) -> Layout {
        let mut columns = Column::per_player(table.everyone(), Tally::Money);
        if self.has_kitty() {
            columns.push(Column::single(KITTY, "Kitty", Tally::Money));
        }
        Layout { columns }
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    fn hand_form(&self, table: &Table) -> crate::rules::game::HandFormSpec {
        form::offer(&self.agreements, table)
    }
}
