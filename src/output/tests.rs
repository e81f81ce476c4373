use super::*;

/// The manifest lists what is at a path: a static file copied over a page this build
/// made there, whichever of their fingerprints is the larger.
#[test]
fn a_static_file_over_a_page_is_what_the_manifest_lists_there() {
    for page_fingerprint in [0, u128::MAX] {
        let dir = tempfile::tempdir().unwrap();
        let (target, statics) = (dir.path().join("public"), dir.path().join("static"));
        std::fs::create_dir_all(&statics).unwrap();
        std::fs::write(statics.join("404.html"), "Lost.\n").unwrap();
        let out = Output::new(&target, None).unwrap();
        out.page("404.html", page_fingerprint, || Ok("<html>".into()))
            .unwrap();
        out.copy_dirs(&[statics], dir.path()).unwrap();
        let (files, _) = out.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("404.html")).unwrap(),
            "Lost.\n"
        );
        let listed = Listed::new(files)
            .get(path_key("404.html"))
            .map(|(_, fp)| fp);
        assert_eq!(listed, Some(crate::manifest::of_bytes(b"Lost.\n")));
    }
}
