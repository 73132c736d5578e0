//! Night payments in the exports: one moves money like a payment inside a session, so the
//! journal gets a balanced transaction and the results CSV two rows per standing payment;
//! after a settled night everyone nets zero. Voided payments are left out.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use super::{ExportError, cell, finish, journal_account, journal_amount, journal_text};
use crate::ids::NightId;
use crate::money::Money;
use crate::store::time::day;

/// A payment that stands against a night, as the exports write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightPaymentRecord {
    /// The night's id.
    pub night_id: NightId,
    /// The night's title ("Thursday at Sal's").
    pub night_title: String,
    /// The night's currency (ISO code, "USD"): its sessions'.
    pub currency: String,
    /// Who paid (a player's name as the night shows it).
    pub payer: String,
    /// Who received.
    pub payee: String,
    /// How much, positive.
    pub amount: Money,
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
}

/// Appends one cleared transaction per night payment to a [`super::journal`]: "Ann paid Bob
/// 1.20 (night: …)", tagged `night` and `type:night_payment`, payer `+amount`, payee
/// `-amount`.
pub fn append_journal(out: &mut String, payments: &[NightPaymentRecord]) {
    for p in payments {
        // `writeln!` into a String cannot fail.
        let _ = writeln!(
            out,
            "{} * {} paid {} {} (night: {})  ; night:{}, type:night_payment",
            day(p.recorded_at),
            journal_text(&p.payer),
            journal_text(&p.payee),
            p.amount,
            journal_text(&p.night_title),
            p.night_id,
        );
        let back = Money::from_cents(p.amount.cents().saturating_neg());
        for (who, amount) in [(&p.payer, p.amount), (&p.payee, back)] {
            let _ = writeln!(
                out,
                "    {}  {}",
                journal_account(who),
                journal_amount(amount, &p.currency)
            );
        }
        out.push('\n');
    }
}

/// The rows [`super::results_csv`] adds, two per payment (`session` = `night:<id>`, `game` =
/// `night_payment`, payer `+amount`, payee `-amount`). Errors: the CSV writer's (a bug).
pub fn results_rows(payments: &[NightPaymentRecord]) -> Result<Vec<u8>, ExportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for p in payments {
        let session = format!("night:{}", p.night_id);
        let back = Money::from_cents(p.amount.cents().saturating_neg());
        let date = day(p.recorded_at);
        for (who, amount) in [(&p.payer, p.amount), (&p.payee, back)] {
            w.write_record([
                session.as_str(),
                date.as_str(),
                "night_payment",
                &cell(who),
                &amount.to_string(),
            ])?;
        }
    }
    finish(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paid(payer: &str, payee: &str, cents: i64) -> NightPaymentRecord {
        NightPaymentRecord {
            night_id: NightId(3),
            night_title: "Thursday; at Sal's".into(),
            currency: "USD".into(),
            payer: payer.into(),
            payee: payee.into(),
            amount: Money::from_cents(cents),
            recorded_at: crate::store::time::normalised("2026-11-24T22:15:00Z").unwrap(),
        }
    }

    /// Dee owed 2.40 and paid Ann 1.20: the payer's posting is +1.20 (her debt shrinks),
    /// the payee's −1.20 (what she is owed shrinks).
    #[test]
    fn a_night_payment_is_one_balanced_transaction() {
        let mut out = String::new();
        append_journal(&mut out, &[paid("Dee", "Ann", 120)]);
        assert_eq!(
            out,
            "2026-11-24 * Dee paid Ann 1.20 (night: Thursday, at Sal's)  ; night:3, type:night_payment\n    \
             players:Dee  $1.20\n    players:Ann  $-1.20\n\n"
        );
    }

    #[test]
    fn a_night_payment_is_two_rows_that_sum_to_zero() {
        let rows = results_rows(&[paid("Dee", "=Ann", 120)]).unwrap();
        assert_eq!(
            String::from_utf8(rows).unwrap(),
            "night:3,2026-11-24,night_payment,Dee,1.20\nnight:3,2026-11-24,night_payment,'=Ann,-1.20\n"
        );
    }
}
