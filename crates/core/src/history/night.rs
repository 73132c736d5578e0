//! A night: the sessions a club played one evening, settled up once.
//!
//! Pure: from each session's balances (cents, after its own payments) and the night's
//! payments, each account's net, the fewest transfers, and the games behind each. A night
//! payment moves nets as a session payment does. Sums are checked, never wrapped.

use std::collections::BTreeMap;

use crate::ledger::settle_up::{Transfer, fewest_transfers};
use crate::money::Money;

/// A session as a night's one-currency check names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Priced {
    /// How players call it: its title, else "Session 7 (Auction Pitch)".
    pub words: String,
    /// Its ISO currency code ("USD").
    pub currency: String,
}

impl Priced {
    /// A session `id` of game `game_name`, titled `title` or not, in `currency` (ISO code).
    pub fn new(id: i64, game_name: &str, title: Option<&str>, currency: &str) -> Priced {
        Priced {
            words: match title.map(str::trim).filter(|t| !t.is_empty()) {
                Some(t) => t.to_string(),
                None => format!("Session {id} ({game_name})"),
            },
            currency: currency.to_string(),
        }
    }
}

/// How players write a currency: "$", "€", "£", else its code ("CHF").
pub fn currency_sign(code: &str) -> String {
    crate::money::with_currency("", code).trim().to_string()
}

/// The one currency `adding` and `night` settle in; errors name a session in another.
pub fn one_currency(night: &[Priced], adding: &[Priced]) -> Result<Option<String>, String> {
    let Some(first) = night.first().or(adding.first()) else {
        return Ok(None);
    };
    match night
        .iter()
        .chain(adding)
        .find(|s| s.currency != first.currency)
    {
        None => Ok(Some(first.currency.clone())),
        Some(other) => Err(format!(
            "{} is in {} and this night is in {}, as {} is; a night settles up in one \
             currency, so settle that session on its own sheet",
            other.words,
            currency_sign(&other.currency),
            currency_sign(&first.currency),
            first.words
        )),
    }
}

/// One session of a night as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightSession {
    /// The session's id (its row in the store).
    pub session_id: i64,
    /// The game's name in player words ("Auction Pitch").
    pub game_name: String,
    /// Still open: its balances are what closing it now would leave (the kitty shared out).
    pub open: bool,
    /// Each account's balance in cents (positive = is owed), payments inside included.
    pub balances: Vec<(String, Money)>,
}

/// Money handed over against the night (voided payments are left out by the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightPayment {
    /// Who paid.
    pub payer: String,
    /// Who received.
    pub payee: String,
    /// How much, in cents, positive.
    pub amount: Money,
}

/// One line of a transfer's why: a session's result for the transfer's payer and payee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behind {
    /// The session's id (its row in the store).
    pub session_id: i64,
    /// Its game's name.
    pub game_name: String,
    /// The payer's balance in that session, cents.
    pub payer: Money,
    /// The payee's balance in that session, cents.
    pub payee: Money,
}

/// A transfer that settles the night, with the games behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightTransfer {
    /// Who pays whom how much (cents).
    pub transfer: Transfer,
    /// The sessions where the payer or the payee won or lost, in the night's order.
    pub behind: Vec<Behind>,
    /// Night payments already made between the two, net cents payer → payee.
    pub paid: Money,
}

/// A night worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightSettlement {
    /// Each account's net over the night's sessions and payments, cents, by name.
    pub net: Vec<(String, Money)>,
    /// The fewest transfers that bring every net to zero.
    pub transfers: Vec<NightTransfer>,
}

/// Why a night cannot be worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NightError {
    /// A total does not fit in 64-bit cents.
    Overflow,
}

impl std::fmt::Display for NightError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NightError::Overflow => f.write_str("the night's totals are too large to add up"),
        }
    }
}

fn add(nets: &mut BTreeMap<String, i64>, who: &str, cents: i64) -> Result<(), NightError> {
    let slot = nets.entry(who.to_string()).or_insert(0);
    *slot = slot.checked_add(cents).ok_or(NightError::Overflow)?;
    Ok(())
}

/// Works out the night of `sessions` with `payments`. Errors: a total overflows.
pub fn settle_night(
    sessions: &[NightSession],
    payments: &[NightPayment],
) -> Result<NightSettlement, NightError> {
    let mut nets: BTreeMap<String, i64> = BTreeMap::new();
    for s in sessions {
        for (who, m) in &s.balances {
            add(&mut nets, who, m.cents())?;
        }
    }
    for p in payments {
        add(&mut nets, &p.payer, p.amount.cents())?;
        let back = p.amount.cents().checked_neg().ok_or(NightError::Overflow)?;
        add(&mut nets, &p.payee, back)?;
    }
    let net: Vec<(String, Money)> = nets
        .into_iter()
        .map(|(who, c)| (who, Money::from_cents(c)))
        .collect();
    let transfers = fewest_transfers(&net)
        .into_iter()
        .map(|t| {
            let behind = sessions
                .iter()
                .filter_map(|s| {
                    let of = |who: &str| {
                        s.balances
                            .iter()
                            .find(|(n, _)| n == who)
                            .map_or(Money::ZERO, |(_, m)| *m)
                    };
                    let (payer, payee) = (of(&t.from), of(&t.to));
                    (!payer.is_zero() || !payee.is_zero()).then(|| Behind {
                        session_id: s.session_id,
                        game_name: s.game_name.clone(),
                        payer,
                        payee,
                    })
                })
                .collect();
            let paid = payments
                .iter()
                .map(|p| {
                    if p.payer == t.from && p.payee == t.to {
                        p.amount.cents()
                    } else if p.payer == t.to && p.payee == t.from {
                        -p.amount.cents()
                    } else {
                        0
                    }
                })
                .try_fold(0i64, |a, c| a.checked_add(c))
                .ok_or(NightError::Overflow)?;
            Ok(NightTransfer {
                transfer: t,
                behind,
                paid: Money::from_cents(paid),
            })
        })
        .collect::<Result<Vec<_>, NightError>>()?;
    Ok(NightSettlement { net, transfers })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_night_takes_sessions_of_its_own_currency_only() {
        let pitch = Priced::new(4, "Auction Pitch", Some("Thursday's Pitch"), "EUR");
        let pinochle = Priced::new(3, "Auction Pinochle", None, "USD");
        let poker = Priced::new(5, "Poker", Some("  "), "USD");
        assert_eq!(poker.words, "Session 5 (Poker)");
        assert_eq!(
            one_currency(
                std::slice::from_ref(&pinochle),
                std::slice::from_ref(&poker)
            ),
            Ok(Some("USD".into()))
        );
        assert_eq!(one_currency(&[], &[]), Ok(None));
        let refused = "Thursday's Pitch is in € and this night is in $, as Session 3 (Auction \
                       Pinochle) is; a night settles up in one currency, so settle that session \
                       on its own sheet";
        assert_eq!(
            one_currency(
                std::slice::from_ref(&pinochle),
                &[poker.clone(), pitch.clone()]
            ),
            Err(refused.into())
        );
        // A new night: the first session sets the currency.
        assert_eq!(one_currency(&[], &[pinochle, pitch]), Err(refused.into()));
        assert_eq!(currency_sign("CHF"), "CHF");
    }

    fn m(c: i64) -> Money {
        Money::from_cents(c)
    }

    fn session(id: i64, game: &str, b: &[(&str, i64)]) -> NightSession {
        NightSession {
            session_id: id,
            game_name: game.into(),
            open: false,
            balances: b.iter().map(|(n, c)| (n.to_string(), m(*c))).collect(),
        }
    }

    fn t(from: &str, to: &str, c: i64) -> Transfer {
        Transfer {
            from: from.into(),
            to: to.into(),
            amount: m(c),
        }
    }

    /// Pitch: Ann −2.80, Bob +2.80; Pinochle: Bob −2.80, Cy +2.80. Alone each session
    /// needs one transfer (two in all: Ann→Bob, Bob→Cy); the night nets Bob to zero and
    /// needs one: Ann pays Cy 2.80.
    #[test]
    fn a_night_needs_fewer_transfers_than_its_sessions() {
        let pitch = session(
            1,
            "Auction Pitch",
            &[("Ann", -280), ("Bob", 280), ("Cy", 0)],
        );
        let pinochle = session(2, "Check Pinochle", &[("Bob", -280), ("Cy", 280)]);
        assert_eq!(fewest_transfers(&pitch.balances).len(), 1);
        assert_eq!(fewest_transfers(&pinochle.balances).len(), 1);
        let night = settle_night(&[pitch, pinochle], &[]).unwrap();
        assert_eq!(
            night.net,
            vec![
                ("Ann".into(), m(-280)),
                ("Bob".into(), m(0)),
                ("Cy".into(), m(280))
            ]
        );
        assert_eq!(night.transfers.len(), 1);
        let only = &night.transfers[0];
        assert_eq!(only.transfer, t("Ann", "Cy", 280));
        assert_eq!(
            only.behind,
            vec![
                Behind {
                    session_id: 1,
                    game_name: "Auction Pitch".into(),
                    payer: m(-280),
                    payee: m(0)
                },
                Behind {
                    session_id: 2,
                    game_name: "Check Pinochle".into(),
                    payer: m(0),
                    payee: m(280)
                },
            ]
        );
        assert_eq!(only.paid, m(0));
    }

    /// Ann −5.00/Bob +3.00/Cy +2.00 then Ann +1.00/Bob −1.00: nets Ann −4.00, Bob +2.00,
    /// Cy +2.00. A night payment Ann→Bob 1.50 leaves Ann −2.50, Bob +0.50, Cy +2.00.
    #[test]
    fn a_night_payment_shrinks_the_transfers() {
        let a = session(
            1,
            "Auction Pinochle",
            &[("Ann", -500), ("Bob", 300), ("Cy", 200)],
        );
        let b = session(2, "Auction Pitch", &[("Ann", 100), ("Bob", -100)]);
        let before = settle_night(&[a.clone(), b.clone()], &[]).unwrap();
        let amounts: Vec<Transfer> = before
            .transfers
            .iter()
            .map(|x| x.transfer.clone())
            .collect();
        assert_eq!(amounts, vec![t("Ann", "Bob", 200), t("Ann", "Cy", 200)]);
        let paid = NightPayment {
            payer: "Ann".into(),
            payee: "Bob".into(),
            amount: m(150),
        };
        let after = settle_night(&[a, b], &[paid]).unwrap();
        assert_eq!(
            after.net,
            vec![
                ("Ann".into(), m(-250)),
                ("Bob".into(), m(50)),
                ("Cy".into(), m(200))
            ]
        );
        let amounts: Vec<(Transfer, Money)> = after
            .transfers
            .iter()
            .map(|x| (x.transfer.clone(), x.paid))
            .collect();
        assert_eq!(
            amounts,
            vec![(t("Ann", "Cy", 200), m(0)), (t("Ann", "Bob", 50), m(150))]
        );
    }

    #[test]
    fn settled_sessions_add_nothing_and_overflow_is_refused() {
        let settled = session(3, "Poker", &[("Ann", 0), ("Bob", 0)]);
        let night = settle_night(&[settled], &[]).unwrap();
        assert!(night.transfers.is_empty());
        let huge = session(4, "Poker", &[("Ann", i64::MAX), ("Bob", -i64::MAX)]);
        let more = session(5, "Poker", &[("Ann", 1), ("Bob", -1)]);
        assert_eq!(settle_night(&[huge, more], &[]), Err(NightError::Overflow));
    }
}
