/* Load a .spring model, simulate it for one second at 60 Hz, print what happened.
 *
 *   cc hello.c -I../../include -L<target>/debug -lspringmesh -lm -o hello   (see .ci/run)
 *   ./hello cloth.spring
 */
#include "springmesh.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL.spring\n", argv[0]);
        return 2;
    }
    uint32_t v = sm_version();
    printf("springmesh %u.%u.%u\n", v >> 16, (v >> 8) & 0xff, v & 0xff);

    SmModel *model = NULL;
    if (sm_model_load(argv[1], &model) != SM_OK) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sm_last_error());
        return 1;
    }
    uint32_t nodes = sm_model_node_count(model);
    uint32_t verts = sm_model_surface_vertex_count(model);
    uint32_t faces = sm_model_face_count(model);
    printf("%s: %u nodes, %u springs; drawn surface: %u vertices, %u faces\n", argv[1], nodes,
           sm_model_spring_count(model), verts, faces);
    /* What a renderer uploads once: the triangles, as indices into the surface's vertices. */
    uint32_t *triangles = malloc(sizeof(uint32_t) * 3 * (size_t)faces + 1);
    size_t corners = sm_model_faces(model, triangles, 3 * (size_t)faces);

    SmSim *sim = NULL;
    if (sm_sim_new(model, &sim) != SM_OK) {
        fprintf(stderr, "cannot simulate: %s\n", sm_last_error());
        sm_model_free(model);
        return 1;
    }
    sm_model_free(model); /* the simulation keeps its own copy */

    /* A model worn on a skeleton: the game sets the joints' world matrices each frame. Here
       the whole skeleton walks along x at 1 m/s from its rest pose (a game reads its bones). */
    uint32_t joints = sm_sim_joint_count(sim);
    float *pose = malloc(sizeof(float) * 16 * (size_t)joints + 1);
    float *rest = malloc(sizeof(float) * 16 * (size_t)joints + 1);
    sm_sim_rest_pose(sim, rest, 16 * (size_t)joints);
    if (joints > 0) printf("worn on %u joints, the first called %s\n", joints, sm_sim_joint_name(sim, 0));
    for (int frame = 0; frame < 60; frame++) {
        for (uint32_t j = 0; j < 16 * joints; j++) pose[j] = rest[j];
        for (uint32_t j = 0; j < joints; j++) pose[16 * j + 12] += (float)(frame + 1) / 60.0f;
        if (joints > 0 && sm_sim_set_pose(sim, pose, joints) != SM_OK) {
            fprintf(stderr, "pose %d refused: %s\n", frame, sm_last_error());
            sm_sim_free(sim);
            return 1;
        }
        if (sm_sim_step(sim, 1.0f / 60.0f) != SM_OK) {
            fprintf(stderr, "step %d failed: %s\n", frame, sm_last_error());
            sm_sim_free(sim);
            return 1;
        }
    }
    const float *p = sm_sim_positions(sim);
    float lowest = p[1];
    for (uint32_t i = 1; i < nodes; i++) {
        if (p[3 * i + 1] < lowest) lowest = p[3 * i + 1];
    }
    SmEnergy e;
    sm_sim_energy(sim, &e);
    printf("after %.3f s: lowest node at y = %.4f m; energy kinetic %.4f J, elastic %.4f J, "
           "gravitational %.4f J\n",
           sm_sim_time(sim), lowest, e.kinetic, e.elastic, e.gravitational);

    free(pose);
    free(rest);
    float *normals = malloc(sizeof(float) * 3 * nodes);
    size_t written = sm_sim_copy_normals(sim, normals, 3 * (size_t)nodes);
    printf("%zu normal components copied\n", written);
    free(normals);

    /* What a renderer uploads each frame: the surface's positions and normals (a cage model's
       skin; the nodes otherwise). Every triangle corner indexes one of them. */
    float *surface = malloc(sizeof(float) * 3 * (size_t)verts + 1);
    float *surface_normals = malloc(sizeof(float) * 3 * (size_t)verts + 1);
    size_t got = sm_sim_copy_surface_positions(sim, surface, 3 * (size_t)verts);
    size_t got_normals = sm_sim_copy_surface_normals(sim, surface_normals, 3 * (size_t)verts);
    int ok = got == 3 * (size_t)verts && got_normals == got && corners == 3 * (size_t)faces;
    float surface_lowest = verts > 0 ? surface[1] : 0.0f;
    for (size_t c = 0; c < corners; c++) ok &= triangles[c] < verts;
    for (uint32_t i = 1; i < verts; i++) {
        if (surface[3 * i + 1] < surface_lowest) surface_lowest = surface[3 * i + 1];
    }
    printf("surface: %zu corners drawn from %u vertices, lowest at y = %.4f m\n", corners, verts,
           surface_lowest);
    free(surface);
    free(surface_normals);
    free(triangles);
    if (!ok) {
        fprintf(stderr, "the surface's arrays do not match its counts\n");
        sm_sim_free(sim);
        return 1;
    }

    /* Errors are codes and messages, never crashes. */
    if (sm_sim_step(sim, -1.0f) != SM_ERR_ARGUMENT) return 1;
    printf("a negative step is refused: %s\n", sm_last_error());

    sm_sim_free(sim);
    return 0;
}
