//! paperboy: a static site generator for paper digests.
//!
//! The pipeline, each stage a module handing the next plain data:
//! `sources` (HTTP and one parser per feed format) -> `Paper` records -> `store` (content
//! files, weekly digests) -> `site` (load content, build indexes) -> `render` (Tera and
//! markdown) -> `output` (the site written aside and swapped in).

pub mod build;
pub mod check;
pub mod config;
pub mod email;
pub mod fetch;
pub mod host;
pub mod init;
pub mod kept;
pub mod license;
pub mod lock;
pub mod manifest;
pub mod output;
pub mod paper;
pub mod progress;
pub mod publish;
pub mod render;
pub mod review;
pub mod serve;
pub mod site;
pub mod snapshot;
pub mod sources;
pub mod store;
pub mod walk;
pub mod words;

/// Drops `value` on a thread of its own. A build's last steps run on one core while
/// freeing what it loaded (half a million allocations at 100,000 papers) took as long as
/// writing the manifest: the other core does it now, and a process that exits first
/// does not wait for it.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}
