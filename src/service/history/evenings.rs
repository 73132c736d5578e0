//! A person's evenings, as the table counts them: the sessions of one night are one
//! evening, and so is a run of sessions in no night played the same evening, whatever UTC
//! day each was started on.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Duration, Utc};

use crate::ids::{NightId, SessionId};
use crate::service::nights::EVENING_HOURS;
use crate::store::nights::PlayedRow;

/// One evening a person played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evening {
    /// The night, when its sessions (or some of them) were made one.
    pub night_id: Option<NightId>,
    /// The night's title.
    pub title: Option<String>,
    /// When its first session was started.
    pub played_at: DateTime<Utc>,
    /// The person's net over its sessions, in cents.
    pub net_cents: i64,
    /// How many sessions the person played in it.
    pub sessions: i64,
}

/// `played` (oldest first) grouped into evenings, oldest first. A session joins the
/// night's evening when it is in a night already seen; else the latest evening when it
/// started less than [`EVENING_HOURS`] after that evening's first session and is in no
/// other night; else it begins an evening. So an evening that runs past midnight UTC, or
/// whose sessions were only partly made a night, counts once.
pub fn evenings(played: &[PlayedRow]) -> Vec<Evening> {
    let mut evenings: Vec<Evening> = Vec::new();
    let mut of_night: BTreeMap<NightId, usize> = BTreeMap::new();
    let mut seen: Vec<BTreeSet<SessionId>> = Vec::new();
    for row in played {
        let at = match row.night_id.and_then(|n| of_night.get(&n)) {
            Some(&at) => at,
            None => match evenings.last() {
                Some(e)
                    if row.played_at - e.played_at < Duration::hours(EVENING_HOURS)
                        && (e.night_id.is_none() || row.night_id.is_none()) =>
                {
                    evenings.len() - 1
                }
                _ => {
                    evenings.push(Evening {
                        night_id: None,
                        title: None,
                        played_at: row.played_at,
                        net_cents: 0,
                        sessions: 0,
                    });
                    seen.push(BTreeSet::new());
                    evenings.len() - 1
                }
            },
        };
        let (Some(evening), Some(sessions)) = (evenings.get_mut(at), seen.get_mut(at)) else {
            continue;
        };
        if let (None, Some(night)) = (evening.night_id, row.night_id) {
            evening.night_id = Some(night);
            evening.title.clone_from(&row.title);
            of_night.insert(night, at);
        }
        evening.net_cents = evening.net_cents.saturating_add(row.net_cents);
        if sessions.insert(row.session_id) {
            evening.sessions += 1;
        }
    }
    evenings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(session: i64, night: Option<i64>, at: &str, cents: i64) -> PlayedRow {
        PlayedRow {
            session_id: SessionId(session),
            night_id: night.map(NightId),
            title: night.map(|n| format!("Night {n}")),
            played_at: DateTime::parse_from_rfc3339(at)
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or_default(),
            net_cents: cents,
        }
    }

    #[test]
    fn an_evening_past_midnight_and_partly_a_night_counts_once() {
        // Four sessions of one evening: two made a night, one before midnight UTC and one
        // after in no night; then a session the next evening.
        let rows = [
            played(1, None, "2026-12-07T19:00:00Z", 100),
            played(2, Some(5), "2026-12-07T21:00:00Z", -40),
            played(3, Some(5), "2026-12-07T23:10:00Z", 20),
            played(4, None, "2026-12-08T00:30:00Z", 5),
            played(4, None, "2026-12-08T00:30:00Z", 5),
            played(6, None, "2026-12-08T19:30:00Z", -10),
        ];
        let got: Vec<_> = evenings(&rows)
            .into_iter()
            .map(|e| (e.night_id.map(|n| n.0), e.net_cents, e.sessions))
            .collect();
        assert_eq!(got, [(Some(5), 90, 4), (None, -10, 1)]);
    }

    #[test]
    fn two_nights_are_two_evenings_and_a_nights_late_session_joins_it() {
        let rows = [
            played(1, Some(1), "2026-12-07T14:00:00Z", 10),
            played(2, Some(2), "2026-12-07T20:00:00Z", 20),
            played(3, Some(1), "2026-12-08T03:00:00Z", 30),
        ];
        let got: Vec<_> = evenings(&rows)
            .into_iter()
            .map(|e| (e.night_id.map(|n| n.0), e.net_cents, e.sessions))
            .collect();
        assert_eq!(got, [(Some(1), 40, 2), (Some(2), 20, 1)]);
    }
}
