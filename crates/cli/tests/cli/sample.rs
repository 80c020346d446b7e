//! `springmesh sample`: every sample, both formats.

use crate::{at, scratch, springmesh};
use springmesh_convert::samples::Sample;
use springmesh_core::io;

#[test]
fn every_sample_is_written_in_both_formats() {
    let dir = scratch("sample");
    for sample in Sample::ALL {
        for ext in ["spring", "spring.json"] {
            let out = at(&dir, &format!("{}.{ext}", sample.name()));
            let v = springmesh(&["sample", sample.name(), "-o", &out, "--json"]).ok().json();
            let expected = sample.model();
            assert_eq!(v["nodes"].as_u64(), Some(expected.nodes.len() as u64));
            assert_eq!(io::load(out.as_ref()).unwrap(), expected, "{out}");
        }
    }
    assert_eq!(springmesh(&["sample", "kite", "-o", &at(&dir, "k.spring")]).code, 2);
}
