use kindred::{Dense, Model, Side};

fn main() -> Result<(), kindred::Error> {
    let x = [0.0, 0.1, 0.2, 5.0, 5.1, 5.2, 9.0, 9.2]; // 8 points in one dimension
    let mut side = Side::new(8)?;
    side.add_pairs(&[0, 2], &[1, 3], &[1.0, -1.0])?; // 0~1 together, 2~3 apart
    let mut model = Model::new("rdpmeans")?;
    model.set("k", 3)?.set("seed", 1)?;
    model.fit(Dense::row_major(&x, 8, 1)?, Some(&side))?;
    println!("labels {:?}, centres {:?}", model.labels()?, model.centers()?.data);
    Ok(())
}
