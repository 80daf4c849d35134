//! The Debian package that `scripts/package.sh` builds, unpacked with
//! `dpkg -x` into a clean folder: its files, its conffile and maintainer
//! scripts, the installed unit through `systemd-analyze verify`, the
//! installed binary's `--version`, its Depends against what `dpkg-shlibdeps`
//! says the binary links, and its machine-readable copyright file.
//!
//! The test reads the package named by `WILDT_DEB` (scripts/test.sh builds
//! one and sets it). Without it the test fails, unless `WILDT_SKIP_DEB=1`
//! says to skip it (after saying so), as the rig tests do.

use std::path::{Path, PathBuf};
use std::process::Command;

fn deb_or_skip() -> Option<PathBuf> {
    match std::env::var_os("WILDT_DEB").filter(|v| !v.is_empty()) {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var("WILDT_SKIP_DEB").as_deref() == Ok("1") => {
            eprintln!("SKIPPED package tests: no WILDT_DEB (WILDT_SKIP_DEB=1)");
            None
        }
        None => panic!(
            "this test needs the package: run `scripts/package.sh` and set WILDT_DEB \
             to the .deb it prints (scripts/test.sh does both); WILDT_SKIP_DEB=1 skips it"
        ),
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed: {said}");
    said
}

fn read(root: &Path, path: &str) -> String {
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn gunzip(root: &Path, path: &str) -> String {
    run(Command::new("gzip").arg("-dc").arg(root.join(path)))
}

#[test]
fn package_installs_binary_unit_conffile_docs_man_pages_and_completions() {
    let Some(deb) = deb_or_skip() else { return };
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    run(Command::new("dpkg").arg("-x").arg(&deb).arg(root));

    // The binary runs from where it was unpacked, and is this version.
    let version = run(Command::new(root.join("usr/bin/wildt")).arg("--version"));
    assert_eq!(
        version.trim(),
        format!("wildt {}", env!("CARGO_PKG_VERSION"))
    );

    // The configuration is the example, and dpkg keeps it as a conffile.
    assert_eq!(
        read(root, "etc/wildt/wildt.toml"),
        include_str!("../../config/example.toml")
    );
    let control = tempfile::tempdir().unwrap();
    run(Command::new("dpkg-deb")
        .arg("-e")
        .arg(&deb)
        .arg(control.path()));
    assert_eq!(
        read(control.path(), "conffiles").trim(),
        "/etc/wildt/wildt.toml"
    );
    // Enabled on install, never started by the package.
    let postinst = read(control.path(), "postinst");
    assert!(
        postinst.contains("deb-systemd-helper enable wildt.service"),
        "{postinst}"
    );
    assert!(!postinst.contains("deb-systemd-invoke start"), "{postinst}");

    // The unit is the repository's, and verifies against the unpacked binary.
    let unit = read(root, "usr/lib/systemd/system/wildt.service");
    assert_eq!(unit, include_str!("../../config/wildt.service"));
    let units = tempfile::tempdir().unwrap();
    let for_verify = units.path().join("wildt.service");
    std::fs::write(
        &for_verify,
        unit.replace(
            "/usr/bin/wildt",
            &root.join("usr/bin/wildt").display().to_string(),
        ),
    )
    .unwrap();
    let said = run(Command::new("systemd-analyze")
        .arg("verify")
        .arg(&for_verify));
    assert_eq!(said.trim(), "", "verify printed something");

    // Documentation, man pages made from the clap definitions, completions.
    assert_eq!(
        read(root, "usr/share/doc/wildt/README.md"),
        include_str!("../../README.md")
    );
    assert_eq!(
        read(root, "usr/share/doc/wildt/SECURITY.md"),
        include_str!("../../SECURITY.md")
    );
    let top = gunzip(root, "usr/share/man/man1/wildt.1.gz");
    assert!(top.contains(".TH wildt 1"), "{top}");
    let check = gunzip(root, "usr/share/man/man1/wildt-config-check.1.gz");
    assert!(check.contains("\\-\\-connect"), "{check}");
    assert!(
        !root.join("usr/share/man/man1/wildt-generate.1.gz").exists(),
        "hidden command has a page"
    );
    let bash = read(root, "usr/share/bash-completion/completions/wildt");
    assert!(bash.contains("complete -F _wildt"), "{bash}");
    let zsh = read(root, "usr/share/zsh/vendor-completions/_wildt");
    assert!(zsh.starts_with("#compdef wildt"), "{zsh}");
    let fish = read(root, "usr/share/fish/vendor_completions.d/wildt.fish");
    assert!(fish.contains("complete -c wildt"), "{fish}");
    for command in ["status", "backup", "init"] {
        assert!(
            bash.contains(command) && zsh.contains(command) && fish.contains(command),
            "{command}"
        );
    }
}

/// The package names in a Depends-style list (`a (>= 1), b | c`), without
/// versions; alternatives count as names of their own.
fn package_names(depends: &str) -> Vec<String> {
    depends
        .split([',', '|'])
        .filter_map(|d| d.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn package_depends_on_the_package_of_every_library_the_binary_links() {
    let Some(deb) = deb_or_skip() else { return };
    let depends = run(Command::new("dpkg-deb")
        .arg("--field")
        .arg(&deb)
        .arg("Depends"));
    let named = package_names(depends.trim());
    for package in ["libc6", "libgcc-s1"] {
        assert!(
            named.iter().any(|n| n == package),
            "{package} not in Depends: {depends}"
        );
    }

    // What dpkg-shlibdeps (dpkg-dev) says the unpacked binary needs, libgcc
    // included, is all in Depends. It wants a debian/control in its folder.
    let root = tempfile::tempdir().unwrap();
    run(Command::new("dpkg").arg("-x").arg(&deb).arg(root.path()));
    let work = tempfile::tempdir().unwrap();
    std::fs::create_dir(work.path().join("debian")).unwrap();
    std::fs::write(work.path().join("debian/control"), "").unwrap();
    let said = run(Command::new("dpkg-shlibdeps")
        .arg("-O")
        .arg(root.path().join("usr/bin/wildt"))
        .current_dir(work.path()));
    let needed = said
        .lines()
        .find_map(|l| l.strip_prefix("shlibs:Depends="))
        .unwrap_or_else(|| panic!("no shlibs:Depends from dpkg-shlibdeps: {said}"));
    let needed = package_names(needed);
    assert!(needed.iter().any(|n| n == "libc6"), "{said}");
    for package in &needed {
        assert!(
            named.contains(package),
            "{package} (dpkg-shlibdeps: {needed:?}) not in Depends: {depends}"
        );
    }
}

#[test]
fn package_carries_a_machine_readable_gpl3_copyright_file() {
    let Some(deb) = deb_or_skip() else { return };
    let root = tempfile::tempdir().unwrap();
    run(Command::new("dpkg").arg("-x").arg(&deb).arg(root.path()));
    let copyright = read(root.path(), "usr/share/doc/wildt/copyright");
    assert_eq!(copyright, include_str!("../../debian/copyright"));
    assert!(
        copyright.starts_with(
            "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        ),
        "{copyright}"
    );
    for line in [
        "Upstream-Name: wildt",
        "Files: *",
        "Copyright: 2026 The wildt developers",
        "License: GPL-3.0+",
    ] {
        assert!(copyright.lines().any(|l| l == line), "{line}: {copyright}");
    }
    assert!(
        copyright.contains("\"/usr/share/common-licenses/GPL-3\""),
        "{copyright}"
    );
}

/// lintian (Debian's package checker, installed by scripts/test.sh) finds
/// no error and no warning; the one tag overridden is overridden in
/// debian/wildt.lintian-overrides with the reason.
#[test]
fn package_passes_lintian_with_no_error_or_warning() {
    let Some(deb) = deb_or_skip() else { return };
    let out = Command::new("lintian")
        .args(["--fail-on", "error,warning", "--no-tag-display-limit"])
        .arg(&deb)
        .output()
        .unwrap_or_else(|e| panic!("lintian (apt install lintian; scripts/test.sh does): {e}"));
    let said = String::from_utf8_lossy(&out.stdout);
    let tags: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("E: ") || l.starts_with("W: "))
        .collect();
    assert!(
        out.status.success() && tags.is_empty(),
        "lintian on {}: {tags:#?}\n{said}{}",
        deb.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The changelog Debian requires of every package is installed, and the
/// lintian overrides are where lintian reads them.
#[test]
fn package_carries_its_debian_changelog_and_lintian_overrides() {
    let Some(deb) = deb_or_skip() else { return };
    let root = tempfile::tempdir().unwrap();
    run(Command::new("dpkg-deb")
        .arg("-x")
        .arg(&deb)
        .arg(root.path()));
    let changelog = gunzip(root.path(), "usr/share/doc/wildt/changelog.Debian.gz");
    assert_eq!(changelog, include_str!("../../debian/changelog"));
    let version = run(Command::new("dpkg-deb")
        .args(["-f"])
        .arg(&deb)
        .arg("Version"));
    assert!(
        changelog.starts_with(&format!("wildt ({}) ", version.trim())),
        "the changelog's first entry is not the package's version {version}: {changelog}"
    );
    assert_eq!(
        read(root.path(), "usr/share/lintian/overrides/wildt"),
        include_str!("../../debian/wildt.lintian-overrides")
    );
}
