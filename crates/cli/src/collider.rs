//! `--collider SHAPE:NUMBERS`: a collider for a run, read from the command line.
//!
//! ```text
//! sphere:X,Y,Z,R                  a ball of radius R at (X, Y, Z)
//! capsule:AX,AY,AZ,BX,BY,BZ,R     the points within R of the segment A–B
//! box:X,Y,Z,HX,HY,HZ              an axis-aligned box at (X, Y, Z) of half size (HX, HY, HZ)
//! plane:X,Y,Z,NX,NY,NZ            the half-space behind the plane through (X, Y, Z), normal N
//! ```
//!
//! in metres, with the default surface; the model's validation then checks the numbers (a
//! radius that is not positive is refused with the collider named).

use glam::{Quat, Vec3};
use springmesh_core::model::{Obstacle, Shape, Surface};
use std::str::FromStr;

/// A collider given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderArg(pub Obstacle);

impl FromStr for ColliderArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, numbers) =
            s.split_once(':').ok_or_else(|| format!("{s}: expected SHAPE:NUMBERS"))?;
        let numbers: Vec<f32> = numbers
            .split(',')
            .map(|n| n.trim().parse().map_err(|_| format!("{n}: not a number")))
            .collect::<Result<_, _>>()?;
        let expect = |count: usize| {
            if numbers.len() == count {
                Ok(())
            } else {
                Err(format!("{kind} takes {count} numbers, got {}", numbers.len()))
            }
        };
        let v = |i: usize| Vec3::new(numbers[i], numbers[i + 1], numbers[i + 2]);
        let shape = match kind {
            "sphere" => expect(4).map(|()| Shape::Sphere { center: v(0), radius: numbers[3] }),
            "capsule" => {
                expect(7).map(|()| Shape::Capsule { a: v(0), b: v(3), radius: numbers[6] })
            }
            "box" => expect(6).map(|()| Shape::Box {
                center: v(0),
                half_extents: v(3),
                rotation: Quat::IDENTITY,
            }),
            "plane" => expect(6).map(|()| Shape::Plane { point: v(0), normal: v(3) }),
            other => Err(format!("{other}: not a shape (sphere, capsule, box or plane)")),
        }?;
        Ok(ColliderArg(Obstacle { shape, surface: Surface::default() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_reads_its_numbers_and_a_wrong_count_is_refused() {
        let capsule: ColliderArg =
            "capsule:0,1,0,2,1,0,0.25".parse().unwrap_or_else(|e| panic!("{e}"));
        let expected = Shape::Capsule { a: Vec3::Y, b: Vec3::new(2.0, 1.0, 0.0), radius: 0.25 };
        assert_eq!(capsule.0.shape, expected);
        assert!("sphere:0,0,0,1".parse::<ColliderArg>().is_ok());
        assert!("box:0,0,0,1,1,1".parse::<ColliderArg>().is_ok());
        assert!("plane:0,0,0,0,1,0".parse::<ColliderArg>().is_ok());
        for bad in ["capsule:0,1,0,2,1,0", "cone:0,0,0", "sphere:0,0,x,1", "sphere"] {
            assert!(bad.parse::<ColliderArg>().is_err(), "{bad}");
        }
    }
}
