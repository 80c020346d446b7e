// The C example through the RAII wrapper: load, simulate a second, print; errors as exceptions.
#include "springmesh.hpp"

#include <cstdio>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.spring\n", argv[0]);
        return 2;
    }
    try {
        springmesh::Simulation sim = [&] {
            springmesh::Model model(argv[1]);
            std::printf("%s: %u nodes, %u springs, %u faces, %zu anchors\n", argv[1],
                        model.node_count(), model.spring_count(), model.face_count(),
                        model.anchors().size());
            return springmesh::Simulation(model);  // the model goes here; the copy stays
        }();
        for (int frame = 0; frame < 60; frame++) sim.step(1.0f / 60.0f);
        SmEnergy e = sim.energy();
        std::printf("after %.3f s: kinetic %.4f J, elastic %.4f J; %zu normal components\n",
                    sim.time(), e.kinetic, e.elastic, sim.normals().size());
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
