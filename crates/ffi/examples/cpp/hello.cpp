// The C example through the RAII wrapper: load, simulate a second, print; errors as exceptions.
#include "springmesh.hpp"

#include <cstdio>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.spring\n", argv[0]);
        return 2;
    }
    try {
        std::vector<std::uint32_t> triangles;
        springmesh::Simulation sim = [&] {
            springmesh::Model model(argv[1]);
            std::printf("%s: %u nodes, %u springs, %u faces over %u surface vertices, %zu anchors\n",
                        argv[1], model.node_count(), model.spring_count(), model.face_count(),
                        model.surface_vertex_count(), model.anchors().size());
            triangles = model.faces();
            return springmesh::Simulation(model);  // the model goes here; the copy stays
        }();
        // A character's forearm far below the model, swung along x by the game each frame.
        const float elbow[3] = {-0.2f, -50.0f, 0.0f}, wrist[3] = {0.2f, -50.0f, 0.0f};
        std::uint32_t arm = sim.add_capsule(elbow, wrist, 0.05f);
        // A model worn on a skeleton: hold it in its rest pose (a game sets its bones' here).
        if (sim.joint_count() > 0) {
            sim.set_pose(sim.rest_pose());
            std::printf("worn on %u joints from %s\n", sim.joint_count(), sim.joint_name(0).c_str());
        }
        for (int frame = 0; frame < 60; frame++) {
            const float at[3] = {0.01f * float(frame), -50.0f, 0.0f};
            sim.set_collider_pose(arm, at);
            sim.step(1.0f / 60.0f);
        }
        SmEnergy e = sim.energy();
        // A frame's drawing: the surface's positions and normals, indexed by the triangles.
        std::vector<float> positions = sim.surface_positions();
        std::vector<float> normals = sim.surface_normals();
        for (std::uint32_t corner : triangles) {
            if (3 * std::size_t(corner) + 2 >= positions.size()) return 1;
        }
        std::printf("after %.3f s: kinetic %.4f J, elastic %.4f J; %zu surface positions and %zu normals for %zu corners\n",
                    sim.time(), e.kinetic, e.elastic, positions.size() / 3, normals.size() / 3,
                    triangles.size());
        try {
            springmesh::Model missing("no-such-file.spring");
            return 1;
        } catch (const springmesh::Error &error) {
            std::printf("a missing file throws (code %d): %s\n", error.code(), error.what());
        }
    } catch (const springmesh::Error &error) {
        std::fprintf(stderr, "error %d: %s\n", error.code(), error.what());
        return 1;
    }
    return 0;
}
