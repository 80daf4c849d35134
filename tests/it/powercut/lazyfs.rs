//! LazyFS as the power-cut tests use it: one mount per test, built and
//! mounted by `scripts/lazyfs.sh`, its page cache dropped through its FIFO
//! (`lazyfs::clear-cache`) and then the file system itself ended and
//! mounted again, which loses whatever the cache still held. [IO: FUSE
//! mounts, processes]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A LazyFS mount over a backing folder, both in a temp dir: the backing
/// folder is the "disk", what survives a cut.
pub struct LazyFs {
    dir: tempfile::TempDir,
}

fn script(what: &str, dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/lazyfs.sh");
    let out = Command::new(&script)
        .arg(what)
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "scripts/lazyfs.sh {what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl LazyFs {
    /// Builds LazyFS if it is not built yet and mounts it.
    pub fn mount() -> LazyFs {
        let fs = LazyFs {
            dir: tempfile::tempdir().unwrap(),
        };
        script("mount", fs.dir.path());
        fs
    }

    /// Where the program under test writes.
    pub fn mnt(&self) -> PathBuf {
        self.dir.path().join("mnt")
    }

    /// A folder beside the mount, not under it (logs, configuration).
    pub fn outside(&self) -> &Path {
        self.dir.path()
    }

    fn pid(&self) -> Option<i32> {
        std::fs::read_to_string(self.dir.path().join("lazyfs.pid"))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// LazyFS is still running (a crash injection ends it).
    pub fn alive(&self) -> bool {
        // Not a zombie either: the script that started it is gone, so init
        // reaps it, but not at once.
        self.pid().is_some_and(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(") ")
                    .is_some_and(|(_, rest)| !rest.starts_with('Z'))
            })
        })
    }

    /// The next mount carries `injection` (an `[[injection]]` table of
    /// LazyFS's configuration), or none.
    pub fn set_injection(&self, injection: Option<&str>) {
        let path = self.dir.path().join("injections.toml");
        match injection {
            Some(text) => std::fs::write(path, text).unwrap(),
            None => match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("injections.toml: {e}"),
            },
        }
    }

    /// The path LazyFS sees for `name` under the mount (what an
    /// injection's `from` names).
    pub fn backing(&self, name: &str) -> PathBuf {
        self.dir.path().join("root").join(name)
    }

    /// Makes LazyFS end itself (losing its cache) right before the next
    /// `op` (a two-path one: `link`, `rename`) from a path matching
    /// `from_rgx` to one matching `to_rgx`: a fault given through its FIFO,
    /// in force until it fires or LazyFS is mounted again.
    pub fn crash_before(&self, op: &str, from_rgx: &str, to_rgx: &str) {
        let before = self.log().matches("VALID crash fault").count();
        let fifo = self.dir.path().join("faults.fifo");
        let command = format!(
            "lazyfs::crash::timing=before::op={op}::from_rgx={from_rgx}::to_rgx={to_rgx}\n"
        );
        std::fs::write(&fifo, command).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.log().matches("VALID crash fault").count() == before {
            assert!(
                Instant::now() < deadline,
                "LazyFS did not take the crash fault:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            !self.log().contains("INVALID crash fault"),
            "LazyFS refused the crash fault:\n{}",
            self.log()
        );
    }

    /// Whether an injection or a crash fault fired since the last mount.
    pub fn injection_fired(&self) -> bool {
        self.log().contains("Triggered fault condition")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("lazyfs.log")).unwrap_or_default()
    }

    /// The power cut: drops every page LazyFS holds that was not synced
    /// (waiting for LazyFS to say so), then ends LazyFS and unmounts, which
    /// would lose them too. Nothing written after this reaches the disk.
    pub fn cut(&self) {
        if self.alive() {
            let before = self.log().matches("cache is cleared").count();
            let fifo = self.dir.path().join("faults.fifo");
            std::fs::write(&fifo, b"lazyfs::clear-cache\n").unwrap();
            let deadline = Instant::now() + Duration::from_secs(20);
            while self.log().matches("cache is cleared").count() == before {
                assert!(
                    Instant::now() < deadline,
                    "LazyFS did not clear its cache:\n{}",
                    self.log()
                );
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        script("umount", self.dir.path());
    }

    /// Mounts again over the same backing folder, with an empty cache.
    pub fn remount(&self) {
        script("mount", self.dir.path());
    }
}

impl Drop for LazyFs {
    fn drop(&mut self) {
        // Unmounted before the temp dir is removed, which would otherwise
        // remove what is under the mount through LazyFS.
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/lazyfs.sh");
        let ended = Command::new(script)
            .arg("umount")
            .arg(self.dir.path())
            .status();
        if !matches!(ended, Ok(s) if s.success()) {
            eprintln!("LazyFS at {} not unmounted", self.dir.path().display());
        }
    }
}
