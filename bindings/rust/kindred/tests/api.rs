use std::collections::HashMap;
use std::path::PathBuf;

use kindred::{Csr, Dense, Layout, Model, Sample, Side, Status};

/// iris from the repository's data folder: (row-major points, n, d, class ids).
fn iris() -> (Vec<f64>, usize, usize, Vec<i32>) {
    let dir = std::env::var("KINDRED_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../data"));
    let text = std::fs::read_to_string(dir.join("iris.csv")).expect("iris.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let label_col = header.iter().position(|h| *h == "label").unwrap();
    let (mut x, mut y, mut classes) = (Vec::new(), Vec::new(), HashMap::new());
    let mut n = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        for (k, field) in line.split(',').enumerate() {
            if k == label_col {
                let next = classes.len() as i32;
                y.push(*classes.entry(field.to_string()).or_insert(next));
            } else {
                x.push(field.parse::<f64>().unwrap());
            }
        }
        n += 1;
    }
    let d = x.len() / n;
    (x, n, d, y)
}

fn to_col_major(x: &[f64], n: usize, d: usize) -> Vec<f64> {
    let mut out = vec![0.0; n * d];
    for i in 0..n {
        for j in 0..d {
            out[i + j * n] = x[i * d + j];
        }
    }
    out
}

fn kmeans3(seed: i64) -> Model {
    let mut m = Model::new("kmeans").unwrap();
    m.set("k", 3).unwrap().set("seed", seed).unwrap();
    m
}

#[test]
fn registry_lists_every_algorithm_with_options() {
    let names = kindred::algorithms();
    assert!(names.contains(&"kmeans".to_string()));
    for name in &names {
        assert!(!kindred::algorithm_summary(name).unwrap().is_empty());
        let opts = kindred::options(name).unwrap();
        assert!(opts.iter().any(|o| o.name == "seed"));
        let model = Model::new(name).unwrap();
        for o in &opts {
            assert_eq!(model.option(&o.name).unwrap().is_empty(), o.default.is_empty(), "{name}.{}", o.name);
        }
    }
    assert!(kindred::metrics().contains(&"nmi".to_string()));
    assert!(kindred::version().starts_with(&format!("{}.", kindred::sys::KINDRED_HEADER_VERSION.0)));
}

#[test]
fn every_algorithm_fits_and_round_trips_through_a_file() {
    let (x, n, d, y) = iris();
    let dir = std::env::temp_dir().join(format!("kindred-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in kindred::algorithms() {
        let uses = kindred::algorithm_uses(&name).unwrap();
        let mut side = Side::new(n).unwrap();
        if uses.pairs {
            side.sample_pairs(&y, Sample::Count(60), 0.0, 1).unwrap();
        }
        if uses.triplets {
            side.sample_triplets(&y, 200, 0.0, 1).unwrap();
        }
        if uses.partial_labels {
            let partial: Vec<i32> = y.iter().enumerate().map(|(i, &c)| if i % 5 == 0 { c } else { -1 }).collect();
            side.set_partial_labels(&partial).unwrap();
        }
        let mut model = Model::new(&name).unwrap();
        if kindred::options(&name).unwrap().iter().any(|o| o.name == "k") {
            model.set("k", 3).unwrap();
        }
        model.fit(Dense::row_major(&x, n, d).unwrap(), Some(&side)).unwrap();
        let labels = model.labels().unwrap();
        assert_eq!(labels.len(), n);
        let path = dir.join(format!("{name}.kdm"));
        model.save(&path).unwrap();
        let back = Model::load(&path).unwrap();
        assert_eq!(back.algorithm(), name);
        assert_eq!(back.labels().unwrap(), labels);
        for (array, rows, cols) in model.array_names().unwrap() {
            let a = model.array(&array).unwrap();
            assert_eq!((a.rows, a.cols), (rows, cols));
            assert!(a.data.iter().all(|v| v.is_finite()), "{name}: {array} has a non-finite value");
            assert_eq!(back.array(&array).unwrap(), a);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn row_major_col_major_and_blocks_give_the_same_labels() {
    let (x, n, d, y) = iris();
    let mut a = kmeans3(4);
    a.fit(Dense::row_major(&x, n, d).unwrap(), None).unwrap();
    let reference = a.labels().unwrap();
    assert!(kindred::metric("ari", &y, &reference).unwrap() > 0.6);
    let xc = to_col_major(&x, n, d);
    let mut b = kmeans3(4);
    b.fit(Dense::col_major(&xc, n, d).unwrap(), None).unwrap();
    assert_eq!(b.labels().unwrap(), reference);
    // the same points as columns 1..=d of a wider row-major matrix
    let mut wide = vec![0.0; n * (d + 2)];
    for i in 0..n {
        wide[i * (d + 2) + 1..i * (d + 2) + 1 + d].copy_from_slice(&x[i * d..(i + 1) * d]);
    }
    let mut c = kmeans3(4);
    c.fit(Dense::with_ld(&wide[1..], n, d, Layout::RowMajor, d + 2).unwrap(), None).unwrap();
    assert_eq!(c.labels().unwrap(), reference);
    assert_eq!(a.predict(Dense::col_major(&xc, n, d).unwrap()).unwrap(), a.labels().unwrap());
    let centers = a.centers().unwrap();
    assert_eq!((centers.rows, centers.cols), (3, d));
}

#[test]
fn short_slices_are_refused_before_reaching_c() {
    let x = vec![1.0; 10];
    assert_eq!(Dense::row_major(&x, 4, 3).unwrap_err().status, Status::Dimension);
    assert_eq!(Dense::with_ld(&x, 3, 3, Layout::RowMajor, 2).unwrap_err().status, Status::Dimension);
    assert_eq!(Dense::row_major(&x, 0, 3).unwrap_err().status, Status::Invalid);
    assert!(Csr::new(2, 3, &[0, 1], &[0], &[1.0]).is_err());
    let mut side = Side::new(5).unwrap();
    assert_eq!(side.add_pairs(&[0, 1], &[2], &[1.0]).unwrap_err().status, Status::Dimension);
}

#[test]
fn library_errors_carry_the_library_message() {
    let (mut x, n, d, _) = iris();
    assert_eq!(Model::new("no-such-algorithm").unwrap_err().status, Status::NotFound);
    let mut m = Model::new("kmeans").unwrap();
    let err = m.set("kk", 3).unwrap_err();
    assert_eq!(err.status, Status::NotFound);
    assert!(err.message.contains("kk"), "{}", err.message);
    assert_eq!(m.set("k", 0).unwrap_err().status, Status::Invalid);
    assert_eq!(m.set("k", "three").unwrap_err().status, Status::Invalid);
    assert_eq!(m.set("bad\0name", 1).unwrap_err().status, Status::Invalid);
    assert_eq!(m.labels().unwrap_err().status, Status::State);
    x[5 * d + 2] = f64::NAN;
    let err = m.fit(Dense::row_major(&x, n, d).unwrap(), None).unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    assert!(!err.message.is_empty());
    let mut side = Side::new(n).unwrap();
    let err = side.add_pairs(&[0], &[n as i64], &[1.0]).unwrap_err();
    assert_eq!(err.status, Status::Index);
    assert!(err.message.contains(&n.to_string()), "{}", err.message);
    assert_eq!(side.add_triplets(&[0], &[0], &[1], &[1]).unwrap_err().status, Status::Invalid);
    assert_eq!(Model::load("/nonexistent/model.kdm").unwrap_err().status, Status::Io);
    assert_eq!(kindred::metric("nope", &[0, 1], &[0, 1]).unwrap_err().status, Status::NotFound);
    assert_eq!(kindred::metric("nmi", &[0, 1], &[0]).unwrap_err().status, Status::Dimension);
}

#[test]
fn progress_can_cancel_and_panics_come_back() {
    let (x, n, d, _) = iris();
    let data = Dense::row_major(&x, n, d).unwrap();
    let mut seen = 0;
    let mut m = kmeans3(1);
    m.fit_with_progress(data, None, |p| {
        assert!(p.iteration >= 1);
        seen += 1;
        true
    })
    .unwrap();
    assert!(seen > 0);
    let err = m.fit_with_progress(data, None, |p| p.iteration < 2).unwrap_err();
    assert_eq!(err.status, Status::Cancelled);
    assert_eq!(m.labels().unwrap_err().status, Status::State); // a cancelled fit leaves no results
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut m = kmeans3(1);
        let _ = m.fit_with_progress(data, None, |_| panic!("from the callback"));
    }));
    assert!(caught.is_err());
    m.fit(data, None).unwrap(); // the library is fine afterwards
}

#[test]
fn log_callback_receives_messages() {
    let (x, n, d, _) = iris();
    let mut m = kmeans3(1);
    let (tx, rx) = std::sync::mpsc::channel();
    m.set_log(Some(Box::new(move |level, msg: &str| {
        let _ = tx.send((level, msg.to_string()));
    })))
    .unwrap();
    m.fit(Dense::row_major(&x, n, d).unwrap(), None).unwrap();
    for (_, msg) in rx.try_iter() {
        assert!(!msg.is_empty());
    }
}

#[test]
fn side_information_round_trip() {
    let mut side = Side::new(6).unwrap();
    side.add_pairs(&[0, 1, 1, 4], &[1, 0, 2, 5], &[1.0, 0.5, 1.0, -2.0]).unwrap();
    let (i, j, v) = side.pairs().unwrap();
    assert_eq!((i, j, v), (vec![0, 1, 4], vec![1, 2, 5], vec![1.5, 1.0, -2.0]));
    assert_eq!(side.components().unwrap(), vec![0, 0, 0, 1, 2, 3]);
    side.check_consistent().unwrap();
    side.add_pairs(&[0], &[2], &[-1.0]).unwrap();
    assert_eq!(side.check_consistent().unwrap_err().status, Status::Infeasible);
    side.add_triplets(&[0], &[1], &[2], &[1]).unwrap();
    assert_eq!(side.counts().unwrap().triplets, 1);
}

#[test]
fn metrics_known_answers() {
    let a = [0, 0, 1, 1, 2, 2];
    assert!((kindred::metric("nmi", &a, &[5, 5, 7, 7, 9, 9]).unwrap() - 1.0).abs() < 1e-12);
    assert!((kindred::metric("rand", &a, &[0; 6]).unwrap() - 3.0 / 15.0).abs() < 1e-12);
}

#[test]
fn models_move_between_threads() {
    let (x, n, d, _) = iris();
    let mut m = kmeans3(2);
    m.fit(Dense::row_major(&x, n, d).unwrap(), None).unwrap();
    let labels = std::thread::spawn(move || m.labels().unwrap()).join().unwrap();
    assert_eq!(labels.len(), n);
}

#[test]
fn active_selection_with_a_closure_oracle() {
    use kindred::{active_select, Answer};
    let (x, n, d, y) = iris();
    let data = Dense::row_major(&x, n, d).unwrap();
    let mut side = Side::new(n).unwrap();
    let mut asked = Vec::new();
    active_select("explore-consolidate", data, Some(3), 30, 1, &mut side, |i, j| {
        asked.push((i, j));
        if y[i as usize] == y[j as usize] { Answer::Same } else { Answer::Different }
    })
    .unwrap();
    assert!(!asked.is_empty() && asked.len() <= 30);
    let (pi, pj, pv) = side.pairs().unwrap();
    for k in 0..pi.len() {
        let same = y[pi[k] as usize] == y[pj[k] as usize];
        assert_eq!(pv[k], if same { 1.0 } else { -1.0 });
    }
    let err = active_select("psychic", data, Some(3), 5, 1, &mut side, |_, _| Answer::Same).unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    assert!(err.message.contains("explore-consolidate"), "{}", err.message);
    let mut fresh = Side::new(n).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = active_select("explore", data, None, 10, 1, &mut fresh, |_, _| panic!("from the oracle"));
    }));
    assert!(caught.is_err());
    assert_eq!(fresh.counts().unwrap().pairs, 0);
}

/// Side information of the kinds `name` uses, sampled from the classes `y`.
fn side_for(name: &str, y: &[i32]) -> Side {
    let uses = kindred::algorithm_uses(name).unwrap();
    let mut side = Side::new(y.len()).unwrap();
    if uses.pairs {
        side.sample_pairs(y, Sample::Count(60), 0.0, 1).unwrap();
    }
    if uses.triplets {
        side.sample_triplets(y, 200, 0.0, 1).unwrap();
    }
    if uses.partial_labels {
        let partial: Vec<i32> = y.iter().enumerate().map(|(i, &c)| if i % 5 == 0 { c } else { -1 }).collect();
        side.set_partial_labels(&partial).unwrap();
    }
    side
}

#[test]
fn f32_points_fit_as_the_f64_points_of_the_same_values() {
    let (x, n, d, y) = iris();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let widened: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
    for name in kindred::algorithms() {
        let side = side_for(&name, &y);
        let model = |x: kindred::Points<'_>| {
            let mut m = Model::new(&name).unwrap();
            if kindred::options(&name).unwrap().iter().any(|o| o.name == "k") {
                m.set("k", 3).unwrap();
            }
            m.fit(x, Some(&side)).unwrap();
            m
        };
        let a = model(Dense::row_major(&widened, n, d).unwrap().into());
        let b = model(Dense::row_major(&x32, n, d).unwrap().into());
        // Row-major float32 points give the float64 fit bitwise: every result array is equal.
        assert_eq!(b.labels().unwrap(), a.labels().unwrap(), "{name}");
        for (array, _, _) in a.array_names().unwrap() {
            assert_eq!(b.array(&array).unwrap(), a.array(&array).unwrap(), "{name}: {array}");
        }
        let xc32: Vec<f32> = to_col_major(&widened, n, d).iter().map(|&v| v as f32).collect();
        let c = model(Dense::col_major(&xc32, n, d).unwrap().into());
        assert_eq!(c.labels().unwrap(), a.labels().unwrap(), "{name}: column-major");
    }
}

#[test]
fn f32_predict_and_transform_agree_with_f64() {
    let (x, n, d, y) = iris();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let widened: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
    let mut m = kmeans3(4);
    m.fit(Dense::row_major(&x32, n, d).unwrap(), None).unwrap();
    let labels = m.labels().unwrap();
    assert_eq!(m.predict(Dense::row_major(&x32, n, d).unwrap()).unwrap(), labels);
    assert_eq!(m.predict(Dense::row_major(&widened, n, d).unwrap()).unwrap(), labels);
    // a block of rows 10..30 inside the matrix, through ld
    let block = Dense::with_ld(&x32[10 * d..], 20, d, Layout::RowMajor, d).unwrap();
    assert_eq!(m.predict(block).unwrap(), &labels[10..30]);
    // tcs-gm learns a transformation: f32 and f64 points map to the same values
    let mut t = Model::new("tcs-gm").unwrap();
    t.fit(Dense::row_major(&x32, n, d).unwrap(), Some(&side_for("tcs-gm", &y))).unwrap();
    let a = t.transform(Dense::row_major(&widened, n, d).unwrap()).unwrap();
    let b = t.transform(Dense::row_major(&x32, n, d).unwrap()).unwrap();
    assert_eq!((b.rows, b.data.len()), (n, n * b.cols));
    assert_eq!(b, a);
}

#[test]
fn f32_bad_points_give_the_library_error() {
    let (x, n, d, _) = iris();
    let mut x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    assert_eq!(Dense::row_major(&x32[..10], 4, 3).unwrap_err().status, Status::Dimension);
    let mut m = kmeans3(1);
    m.fit(Dense::row_major(&x32, n, d).unwrap(), None).unwrap();
    assert_eq!(m.predict(Dense::row_major(&x32[..2 * 3], 2, 3).unwrap()).unwrap_err().status, Status::Dimension);
    x32[5 * d + 2] = f32::NAN;
    let err = m.predict(Dense::row_major(&x32, n, d).unwrap()).unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    let err = m.fit(Dense::row_major(&x32, n, d).unwrap(), None).unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    assert!(!err.message.is_empty());
    assert_eq!(m.labels().unwrap_err().status, Status::State); // a failed fit leaves no results
}
