//! Progress on a terminal: spinners per source and bars for long builds. Hidden when
//! quiet or when stderr is not a terminal.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub struct Progress {
    multi: Option<MultiProgress>,
}

pub struct SourceBar(Option<ProgressBar>);

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        let on = enabled && std::io::stderr().is_terminal();
        Progress {
            multi: on.then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
        }
    }

    pub fn source(&self, label: &str) -> SourceBar {
        SourceBar(self.multi.as_ref().map(|m| {
            let bar = m.add(ProgressBar::new_spinner());
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
            bar.set_message(label.to_string());
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        }))
    }

    /// A bar of `len` steps for rendering.
    pub fn bar(&self, len: u64, what: &str) -> Option<ProgressBar> {
        self.multi.as_ref().map(|m| {
            let bar = m.add(ProgressBar::new(len));
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar.set_message(what.to_string());
            bar
        })
    }

    pub fn finish(&self) {
        if let Some(m) = &self.multi {
            let _ = m.clear();
        }
    }
}

impl SourceBar {
    /// A long source (a harvest, a snapshot) says how far it got.
    pub fn advance(&self, label: &str, entries: usize) {
        if let Some(bar) = &self.0 {
            bar.set_message(format!("{label} ({entries} entries so far)"));
        }
    }

    pub fn finish(&self, entries: usize) {
        if let Some(bar) = &self.0 {
            bar.finish_with_message(format!("{} ({entries} entries)", bar.message()));
        }
    }
}
