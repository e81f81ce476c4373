//! The build's steps, timed: wall and CPU time and memory at the end of each.

use super::*;

/// One step of a build: its name, how long it took, and the process's peak memory
/// (bytes) at its end, where the OS tells.
pub struct Step {
    pub name: &'static str,
    pub took: Duration,
    /// CPU time of all the process's threads during the step: near `took` times the
    /// number of cores when the step keeps them all busy.
    pub cpu: Duration,
    pub peak_memory: Option<u64>,
    /// Resident memory at its end.
    pub memory: Option<u64>,
}

pub(super) struct Steps {
    pub(super) list: Vec<Step>,
    pub(super) last: Instant,
    pub(super) last_cpu: Duration,
}

impl Steps {
    pub(super) fn done(&mut self, name: &'static str) {
        let now = Instant::now();
        let cpu = process_cpu_time();
        self.list.push(Step {
            name,
            took: now - self.last,
            cpu: cpu.saturating_sub(self.last_cpu),
            peak_memory: status_bytes("VmHWM:"),
            memory: status_bytes("VmRSS:"),
        });
        self.last = now;
        self.last_cpu = cpu;
    }
}

pub(super) fn process_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A size from /proc/self/status: `VmHWM:` (peak resident memory so far), `VmRSS:`.
pub(super) fn status_bytes(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
