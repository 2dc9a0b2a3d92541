//! Finds libkindred without any crate from outside the repository:
//! KINDRED_LIB (the library's folder, e.g. a build tree's src/, or the file itself),
//! else KINDRED_PREFIX (an install prefix), else the `pkg-config` program.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    for var in ["KINDRED_LIB", "KINDRED_PREFIX", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let dirs = if let Some(lib) = env::var_os("KINDRED_LIB") {
        let p = PathBuf::from(lib);
        vec![if p.is_file() { p.parent().unwrap_or(Path::new(".")).to_path_buf() } else { p }]
    } else if let Some(prefix) = env::var_os("KINDRED_PREFIX") {
        prefix_libdirs(Path::new(&prefix))
    } else {
        match pkg_config_libdirs() {
            Ok(dirs) => dirs,
            Err(why) => {
                println!("cargo:warning=kindred-sys: {why}; linking -lkindred from the default search path");
                Vec::new()
            }
        }
    };
    for d in &dirs {
        println!("cargo:rustc-link-search=native={}", d.display());
    }
    if let Some(first) = dirs.first() {
        println!("cargo:libdir={}", first.display()); // DEP_KINDRED_LIBDIR for dependants
    }
    println!("cargo:rustc-link-lib=dylib=kindred");
}

fn prefix_libdirs(prefix: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![prefix.join("lib"), prefix.join("lib64")];
    if let Ok(entries) = std::fs::read_dir(prefix.join("lib")) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().contains("-linux-") {
                dirs.push(e.path());
            }
        }
    }
    dirs.into_iter().filter(|d| d.join("libkindred.so").exists()).collect()
}

fn pkg_config_libdirs() -> Result<Vec<PathBuf>, String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let out = Command::new(&program)
        .args(["--libs-only-L", "kindred"])
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} --libs kindred failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("-L"))
        .map(PathBuf::from)
        .collect())
}
