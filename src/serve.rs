//! `paperboy serve`: build, serve on 127.0.0.1, rebuild when content, templates, static
//! files or the config change, and reload open pages. A broken edit shows its error on
//! the page and in the terminal while the last good site stays served.

use crate::config::Config;
use anyhow::{Context, Result};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What open pages poll for: a new generation means reload; an error is shown.
#[derive(Debug, Default, Clone)]
struct BuildState {
    generation: u64,
    error: Option<String>,
}

struct Shared {
    state: Mutex<BuildState>,
    changed: Condvar,
}

/// Injected into served HTML only; the built site itself has no JavaScript.
const RELOAD_SCRIPT: &str = r#"<script>
(function () {
  var gen = null;
  function banner(msg) {
    var el = document.getElementById("paperboy-error");
    if (!msg) { if (el) el.remove(); return; }
    if (!el) {
      el = document.createElement("pre");
      el.id = "paperboy-error";
      el.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:1em;max-height:40vh;overflow:auto;background:#7f1d1d;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap;z-index:99999";
      document.body.appendChild(el);
    }
    el.textContent = "paperboy: the last edit did not build; showing the last good site.\n\n" + msg;
  }
  function poll() {
    fetch("/__paperboy/events?since=" + (gen === null ? "" : gen))
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (gen !== null && s.generation !== gen && !s.error) { location.reload(); return; }
        gen = s.generation; banner(s.error); poll();
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>"#;

pub struct ServeOptions {
    /// The address to listen on: 127.0.0.1 unless the user asks for another (`--interface`).
    pub interface: std::net::IpAddr,
    pub port: u16,
    pub output: PathBuf,
}

/// Runs until the process is stopped. `load_config` is called again before every rebuild.
pub fn run(
    root: &Path,
    opts: &ServeOptions,
    load_config: impl Fn() -> Result<Config> + Send + 'static,
    on_ready: impl FnOnce(&str),
) -> Result<()> {
    let listener = std::net::TcpListener::bind((opts.interface, opts.port))
        .with_context(|| format!("cannot listen on {}:{}", opts.interface, opts.port))?;
    let port = listener.local_addr()?.port();
    // Pages link to the address a browser on this machine can reach; 0.0.0.0 and :: are
    // not addresses to visit.
    let host = match opts.interface {
        ip if ip.is_unspecified() => "127.0.0.1".to_string(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    let base_url = format!("http://{host}:{port}");
    let shared = Arc::new(Shared {
        state: Mutex::new(BuildState::default()),
        changed: Condvar::new(),
    });
    let rebuild = {
        let (root, output, base_url, shared) = (
            root.to_path_buf(),
            opts.output.clone(),
            base_url.clone(),
            shared.clone(),
        );
        move || {
            let result = load_config().and_then(|mut config| {
                config.base_url = base_url.clone();
                crate::build::run(
                    &root,
                    &config,
                    &output,
                    &crate::build::Options {
                        incremental: true,
                        ..Default::default()
                    },
                )
            });
            let mut state = shared
                .state
                .lock()
                .expect("no thread panics holding the lock");
            state.generation += 1;
            match result {
                Ok(report) => {
                    eprintln!("{report}");
                    state.error = None;
                }
                Err(e) => {
                    let msg = format!("{e:#}");
                    eprintln!("error: {msg}");
                    state.error = Some(msg);
                }
            }
            shared.changed.notify_all();
        }
    };
    rebuild();
    on_ready(&base_url);
    let _watcher = watch(root, rebuild)?;
    serve_http(listener, shared, opts.output.clone())
}

/// One task per connection on a one-thread runtime (hyper); a request's work, a file read
/// or a wait of up to 25 s for the next build, runs on tokio's blocking threads. The
/// server this replaced (tiny_http 0.12) could leave a new connection queued until another
/// closed when a page opened several at once: a search page stalled for 25 s.
fn serve_http(listener: std::net::TcpListener, shared: Arc<Shared>, output: PathBuf) -> Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of file descriptors, say: the connections already open go on.
                Err(e) => {
                    eprintln!("warning: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let (shared, output) = (shared.clone(), output.clone());
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let (shared, output) = (shared.clone(), output.clone());
                let target = request
                    .uri()
                    .path_and_query()
                    .map_or_else(|| "/".to_string(), |p| p.as_str().to_string());
                async move {
                    let reply =
                        tokio::task::spawn_blocking(move || handle(&target, &shared, &output))
                            .await
                            .unwrap_or_else(|_| Reply::text(500, "the request failed"));
                    Ok::<_, std::convert::Infallible>(reply.into_response())
                }
            });
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                // A browser that goes away mid-answer is not an error worth a line.
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    })
}

/// Watches the site's inputs; bursts of events within 200 ms make one rebuild.
fn watch(root: &Path, rebuild: impl Fn() + Send + 'static) -> Result<notify::RecommendedWatcher> {
    use notify::Watcher;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(tx).context("cannot watch files")?;
    for part in ["content", "templates", "themes", "static", "paperboy.toml"] {
        let path = root.join(part);
        if path.exists() {
            watcher
                .watch(&path, notify::RecursiveMode::Recursive)
                .with_context(|| format!("cannot watch {}", path.display()))?;
        }
    }
    std::thread::spawn(move || {
        while let Ok(event) = rx.recv() {
            if !is_input_change(&event) {
                continue;
            }
            while rx.recv_timeout(Duration::from_millis(200)).is_ok() {}
            rebuild();
        }
    });
    Ok(watcher)
}

fn is_input_change(event: &notify::Result<notify::Event>) -> bool {
    let Ok(event) = event else { return false };
    if matches!(event.kind, notify::EventKind::Access(_)) {
        return false;
    }
    // Our own atomic writes leave `.paperboy-*.tmp` files; editors leave swap files.
    event.paths.iter().any(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        !(name.starts_with('.')
            || name.ends_with('~')
            || name.ends_with(".swp")
            || name.ends_with(".tmp"))
    })
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// An answer; every one says `no-store`, so a reload never shows a stale page.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn text(status: u16, text: &str) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: text.as_bytes().to_vec(),
        }
    }

    fn into_response(self) -> hyper::Response<http_body_util::Full<bytes::Bytes>> {
        let mut response = hyper::Response::new(http_body_util::Full::new(self.body.into()));
        *response.status_mut() =
            hyper::StatusCode::from_u16(self.status).unwrap_or(hyper::StatusCode::OK);
        let headers = response.headers_mut();
        headers.insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static(self.content_type),
        );
        headers.insert(
            hyper::header::CACHE_CONTROL,
            hyper::header::HeaderValue::from_static("no-store"),
        );
        response
    }
}

/// Answers a request for `target` (its path and query).
fn handle(target: &str, shared: &Shared, output: &Path) -> Reply {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path == "/__paperboy/events" {
        let since: Option<u64> = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .and_then(|v| v.parse().ok());
        let guard = shared.state.lock().expect("lock");
        // Long poll: answer at once when the client is behind, else wait for a build.
        let (state, _) = shared
            .changed
            .wait_timeout_while(guard, Duration::from_secs(25), |s| {
                since == Some(s.generation)
            })
            .expect("lock");
        let body = format!(
            "{{\"generation\":{},\"error\":{}}}",
            state.generation,
            state
                .error
                .as_deref()
                .map(json_string)
                .unwrap_or_else(|| "null".into())
        );
        return Reply {
            status: 200,
            content_type: "application/json",
            body: body.into_bytes(),
        };
    }
    let (status, file) = match resolve(output, path) {
        Some(f) => (200, f),
        None => (404, output.join("404.html")),
    };
    let Ok(mut bytes) = std::fs::read(&file) else {
        return Reply::text(404, "not found");
    };
    let is_html = file.extension().is_some_and(|e| e == "html");
    if is_html {
        let html = String::from_utf8_lossy(&bytes);
        let injected = match html.rfind("</body>") {
            Some(i) => format!("{}{RELOAD_SCRIPT}{}", &html[..i], &html[i..]),
            None => format!("{html}{RELOAD_SCRIPT}"),
        };
        bytes = injected.into_bytes();
    }
    Reply {
        status,
        content_type: crate::walk::content_type(&file.to_string_lossy()),
        body: bytes,
    }
}

/// A URL path to a file of the built site, refusing anything that would leave it.
fn resolve(output: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path.trim_start_matches('/'));
    let rel = Path::new(&decoded);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut file = output.join(rel);
    if file.is_dir() {
        file = file.join("index.html");
    }
    // A symlink placed in the served folder must not reach outside it.
    let (real, root) = (file.canonicalize().ok()?, output.canonicalize().ok()?);
    (real.starts_with(&root) && real.is_file()).then_some(file)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_stays_inside_the_served_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        std::fs::create_dir_all(out.join("digests/w")).unwrap();
        std::fs::write(out.join("index.html"), "home").unwrap();
        std::fs::write(out.join("digests/w/index.html"), "week").unwrap();
        std::fs::write(out.join("a b.css"), "css").unwrap();
        std::fs::write(tmp.path().join("secret"), "secret").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), out.join("link")).unwrap();
        std::os::unix::fs::symlink(tmp.path(), out.join("up")).unwrap();

        assert_eq!(resolve(&out, "/"), Some(out.join("index.html")));
        assert_eq!(
            resolve(&out, "/digests/w/"),
            Some(out.join("digests/w/index.html"))
        );
        assert_eq!(resolve(&out, "/a%20b.css"), Some(out.join("a b.css")));
        for bad in [
            "/../secret",
            "/digests/../../secret",
            "/%2e%2e/secret",
            "/%2E%2E%2Fsecret",
            "/..%2fsecret",
            "/digests/%2e%2e/%2e%2e/secret",
            "/./index.html",
            "//etc/passwd",
            "/%2Fetc%2Fpasswd",
            "/link",
            "/up/secret",
            "/..\\secret",
            "http://127.0.0.1/../secret",
            "/no/such/page/",
        ] {
            assert_eq!(resolve(&out, bad), None, "{bad}");
        }
    }
}
