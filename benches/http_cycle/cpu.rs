//! The CPU time of processes, read from `/proc` (Linux): what the engines' rows charge each
//! recorded hand on the PostgreSQL server and on the service's own processes.
//!
//! A single-threaded process's own time (each PostgreSQL process) is the scheduler's run
//! time (`/proc/PID/schedstat`, nanoseconds) where the kernel keeps it: a row records about
//! a thousand hands, and a tick (10 ms at 100 Hz) lost to rounding on each of a dozen
//! processes would move its CPU per hand by a tenth of a millisecond. A threaded one's (the
//! service) is `utime + stime` of `/proc/PID/stat` (clock ticks), the only sum over all its
//! threads, ended ones included: `schedstat` is its first thread's alone.

use std::collections::HashMap;
use std::time::Duration;

/// Every process on the machine at one moment: its parent and the CPU time it has used.
pub struct Snapshot {
    /// pid → (parent pid, CPU time used, whether it serves a client connection).
    processes: HashMap<u32, (u32, Duration, bool)>,
}

impl Snapshot {
    /// Every process under `/proc` now; those that end while it is read are left out.
    pub fn take() -> Snapshot {
        let mut processes = HashMap::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let pid = entry.file_name().to_str().and_then(|s| s.parse().ok());
            if let Some((pid, parent, used)) = pid.and_then(read) {
                processes.insert(pid, (parent, used, serves_a_client(pid)));
            }
        }
        Snapshot { processes }
    }

    /// The CPU time used by process `root` (with the children it has waited for, gone) and
    /// by its children now alive, zero if it is gone: a PostgreSQL server's postmaster
    /// takes in every backend's and worker's time, the ones still running through this sum,
    /// the ended ones through its own `cutime + cstime`.
    pub fn tree(&self, root: u32) -> Duration {
        self.processes
            .iter()
            .filter(|(pid, (parent, ..))| **pid == root || *parent == root)
            .map(|(_, (_, used, _))| *used)
            .sum()
    }

    /// The part of [`Snapshot::tree`] that served no client connection: `root` itself
    /// (with every child ended) and its children that serve none (a PostgreSQL server's
    /// checkpointer, WAL writer, autovacuum workers).
    pub fn background(&self, root: u32) -> Duration {
        self.processes
            .iter()
            .filter(|(pid, (parent, _, client))| **pid == root || (*parent == root && !client))
            .map(|(_, (_, used, _))| *used)
            .sum()
    }
}

/// Whether process `pid` is a PostgreSQL backend serving a client: its title names the
/// client's address, `host(port)` or `[local]` (`postgres: USER DATABASE 127.0.0.1(5432)
/// idle`), where a background process's names only its task.
fn serves_a_client(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|title| {
            let title = String::from_utf8_lossy(&title);
            title.starts_with("postgres: ") && (title.contains('(') || title.contains("[local]"))
        })
        .unwrap_or(false)
}

/// The parent of process `pid` and whether it runs the program `program` (its `comm`):
/// `None` if there is no such process here.
pub fn parent_if(pid: u32, program: &str) -> Option<u32> {
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    if comm.trim_end() != program {
        return None;
    }
    read(pid).map(|(_, parent, _)| parent)
}

/// Process `pid`'s parent and the CPU time it has used: its own (see the module) plus the
/// children it has waited for (`cutime + cstime`).
fn read(pid: u32) -> Option<(u32, u32, Duration)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces:
    // state (3), ppid (4), …, utime (14), stime (15), cutime (16), cstime (17), …,
    // num_threads (20).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    let ticks = |n: u64| Duration::from_secs_f64(n as f64 / clock_ticks() as f64);
    let schedstat = || std::fs::read_to_string(format!("/proc/{pid}/schedstat")).ok();
    let own = Some(())
        .filter(|_| field(20) == Some(1))
        .and_then(|_| schedstat()?.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .or_else(|| Some(ticks(field(14)? + field(15)?)))?;
    let waited = ticks(field(16)? + field(17)?);
    Some((pid, u32::try_from(field(4)?).ok()?, own + waited))
}

/// The clock ticks per second of `/proc/PID/stat`'s times (`_SC_CLK_TCK`).
fn clock_ticks() -> u64 {
    rustix::param::clock_ticks_per_second()
}
