//! File descriptors and the live-sheet cap. Every open sheet holds a connection, so a file
//! descriptor, and anyone may open sheets: were the cap at or above the process's
//! descriptor limit, sheets alone would use them all and `/healthz`, writes, database
//! connections and new connections would fail ("Too many open files"). So the server
//! raises its soft limit to the hard one at start and caps the sheets below it.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Descriptors kept back from live sheets when the limit allows: the listener, the
/// database's connections and files, the runtime's own, and the other requests' connections.
pub const RESERVE: u64 = 128;

/// The most live sheets the server keeps open at descriptor limit `limit` (`None`:
/// unlimited), given `configured` (`LIVE_OVERALL`): `configured`, but at most `limit`
/// less [`RESERVE`], or half of `limit` when that leaves more (a small limit keeps half for
/// everything else rather than none).
pub fn live_cap(configured: usize, limit: Option<u64>) -> usize {
    let Some(limit) = limit else {
        return configured;
    };
    let room = limit.saturating_sub(RESERVE).max(limit / 2);
    usize::try_from(room).map_or(configured, |room| configured.min(room))
}

/// Raises the process's soft limit on open files to its hard limit, and answers the soft
/// limit in force afterwards (`None`: unlimited). A refused raise (macOS refuses an
/// unlimited soft limit, say) keeps the limit there was, which the cap then respects.
pub fn raise_limit() -> Option<u64> {
    let before = getrlimit(Resource::Nofile);
    if before.current != before.maximum {
        let raised = Rlimit {
            current: before.maximum,
            maximum: before.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!("the open-file limit stays {:?}: {e}", before.current);
        }
    }
    getrlimit(Resource::Nofile).current
}

#[cfg(test)]
mod tests {
    use super::{RESERVE, live_cap};

    #[test]
    fn the_cap_leaves_room_for_everything_else_at_any_limit() {
        // (descriptor limit, cap with LIVE_OVERALL at its default 1,024)
        let cases = [
            (64, 32),
            (256, 128),
            (1024, 896),
            (4096, 1024),
            (65536, 1024),
        ];
        for (limit, cap) in cases {
            assert_eq!(live_cap(1024, Some(limit)), cap, "limit {limit}");
            let left = limit - u64::try_from(cap).unwrap();
            assert!(left >= RESERVE.min(limit / 2), "limit {limit}: {left} left");
        }
    }

    #[test]
    fn a_larger_configured_cap_is_held_below_the_limit_and_a_smaller_one_kept() {
        assert_eq!(live_cap(100_000, Some(65536)), 65408);
        assert_eq!(live_cap(10, Some(64)), 10);
        assert_eq!(live_cap(0, Some(1024)), 0);
        assert_eq!(
            live_cap(5000, None),
            5000,
            "no limit, nothing to leave room in"
        );
        assert_eq!(live_cap(1024, Some(0)), 0);
    }
}
