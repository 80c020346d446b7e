/* A game's rigid body meets a soft one: a 1 kg box of 0.2 m, owned by the game's physics engine
 * (here a few lines of semi-implicit Euler standing in for Jolt or PhysX), dropped onto a jelly.
 * Each frame the game tells the simulation where the box is and how it moves, steps it, and
 * applies the impulses the box took to its body, and moves it where the contacts left it.
 *
 *   cc box_on_jelly.c -I../../include -L<target>/debug -lspringmesh -lm -o box_on_jelly
 *   ./box_on_jelly blob.spring    (springmesh convert assets/meshes/blob.obj --solid)
 */
#include "springmesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s JELLY.spring\n", argv[0]);
        return 2;
    }
    SmModel *model = NULL;
    SmSim *sim = NULL;
    if (sm_model_load(argv[1], &model) != SM_OK || sm_sim_new(model, &sim) != SM_OK) {
        fprintf(stderr, "cannot simulate %s: %s\n", argv[1], sm_last_error());
        sm_model_free(model);
        return 1;
    }
    uint32_t verts = sm_model_surface_vertex_count(model);
    sm_model_free(model);

    /* The top, the bottom and the middle of the jelly's drawn surface. */
    float *surface = malloc(sizeof(float) * 3 * (size_t)verts + 1);
    sm_sim_copy_surface_positions(sim, surface, 3 * (size_t)verts);
    float top = surface[1], bottom = surface[1], centre[3] = {0.0f, 0.0f, 0.0f};
    for (uint32_t i = 0; i < verts; i++) {
        if (surface[3 * i + 1] > top) top = surface[3 * i + 1];
        if (surface[3 * i + 1] < bottom) bottom = surface[3 * i + 1];
        for (int k = 0; k < 3; k++) centre[k] += surface[3 * i + k] / (float)verts;
    }
    free(surface);

    /* The game's floor is a rigid body too: a static slab (inverse mass 0) under the jelly. */
    SmRigidBody floor = {0};
    floor.shape = SM_RIGID_BOX;
    floor.rotation[3] = 1.0f;
    floor.half_extents[0] = floor.half_extents[2] = 10.0f;
    floor.half_extents[1] = 0.5f;
    floor.position[1] = floor.center_of_mass[1] = bottom - 0.5f;
    floor.friction = 0.5f;

    /* The game's box: mass 1 kg, a cube's inertia m s² / 6 about its centre. */
    const float mass = 1.0f, side = 0.2f, dt = 1.0f / 60.0f, g = -9.81f;
    const float inertia = mass * side * side / 6.0f;
    SmRigidBody bodies[2] = {{0}, floor};
    SmRigidBody *cube = &bodies[0];
    cube->shape = SM_RIGID_BOX;
    cube->rotation[3] = 1.0f;
    for (int k = 0; k < 3; k++) cube->half_extents[k] = side / 2.0f;
    cube->position[0] = centre[0];
    cube->position[1] = top + 0.3f;
    cube->position[2] = centre[2];
    cube->inverse_mass = 1.0f / mass;
    cube->inverse_inertia[0] = cube->inverse_inertia[4] = cube->inverse_inertia[8] = 1.0f / inertia;
    cube->friction = 0.5f;

    float fastest = 0.0f;
    for (int frame = 0; frame < 180; frame++) {
        for (int k = 0; k < 3; k++) cube->center_of_mass[k] = cube->position[k];
        if (sm_sim_set_rigid_bodies(sim, bodies, 2) != SM_OK || sm_sim_step(sim, dt) != SM_OK) {
            fprintf(stderr, "frame %d: %s\n", frame, sm_last_error());
            sm_sim_free(sim);
            return 1;
        }
        float impulse[24]; /* 12 floats a body: the box's, then the floor's (which stays) */
        sm_sim_rigid_impulses(sim, impulse, 24);
        /* The engine's frame: the impulses, the move, then gravity for the next frame (the
           box does not turn far in a frame: its orientation is kept for brevity). */
        float speed = 0.0f;
        for (int k = 0; k < 3; k++) {
            cube->linear_velocity[k] += impulse[k] / mass;
            cube->angular_velocity[k] += impulse[3 + k] / inertia;
            cube->position[k] += impulse[6 + k]; /* where the contacts left it */
            cube->position[k] += cube->linear_velocity[k] * dt;
            speed += cube->linear_velocity[k] * cube->linear_velocity[k];
        }
        cube->linear_velocity[1] += g * dt;
        if (frame >= 120 && sqrtf(speed) > fastest) fastest = sqrtf(speed);
    }
    printf("the box rests %.3f m above the jelly's top (its centre; half its side is %.3f m), "
           "at most %.3f m/s in its last second\n",
           cube->position[1] - top, side / 2.0f, fastest);
    sm_sim_free(sim);
    /* Held on the jelly, not through it, and at rest. */
    return (cube->position[1] - top > 0.0f && cube->position[1] - top < 0.2f && fastest < 0.1f) ? 0 : 1;
}
