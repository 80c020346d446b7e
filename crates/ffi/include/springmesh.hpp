// springmesh.hpp: header-only C++17 RAII wrapper of the springmesh C API (springmesh.h).
//
//   springmesh::Model model("cloth.spring");          // throws springmesh::Error on failure
//   springmesh::Simulation sim(model);
//   sim.step(1.0f / 60.0f);
//   const float *xyz = sim.positions();               // 3 floats per node
//
// Handles are move-only and freed by their destructors. One Simulation is used by one thread
// at a time; a Model may be shared read-only between threads.
#ifndef SPRINGMESH_HPP
#define SPRINGMESH_HPP

#include "springmesh.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace springmesh {

/// A failed call: the library's code and its message.
class Error : public std::runtime_error {
public:
    Error(int code, const char *message) : std::runtime_error(message), code_(code) {}
    int code() const noexcept { return code_; }

private:
    int code_;
};

namespace detail {
inline void check(int code) {
    if (code != SM_OK) throw Error(code, sm_last_error());
}
}  // namespace detail

/// A loaded model.
class Model {
public:
    explicit Model(const std::string &path) { detail::check(sm_model_load(path.c_str(), &m_)); }
    Model(const std::uint8_t *bytes, std::size_t len) {
        detail::check(sm_model_load_memory(bytes, len, &m_));
    }
    ~Model() { sm_model_free(m_); }
    Model(Model &&other) noexcept : m_(std::exchange(other.m_, nullptr)) {}
    Model &operator=(Model &&other) noexcept {
        std::swap(m_, other.m_);
        return *this;
    }
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;

    std::uint32_t node_count() const { return sm_model_node_count(m_); }
    std::uint32_t spring_count() const { return sm_model_spring_count(m_); }
    std::uint32_t face_count() const { return sm_model_face_count(m_); }
    /// Vertices of the drawn surface: a cage model's skin, else the nodes.
    std::uint32_t surface_vertex_count() const { return sm_model_surface_vertex_count(m_); }
    /// Surface vertex indices (node indices without a skin), 3 per face.
    std::vector<std::uint32_t> faces() const {
        std::vector<std::uint32_t> out(3 * std::size_t(face_count()));
        out.resize(sm_model_faces(m_, out.data(), out.size()));
        return out;
    }
    /// Texture coordinates, 2 per face corner (empty if the model has none).
    std::vector<float> uvs() const {
        std::vector<float> out(6 * std::size_t(face_count()));
        out.resize(sm_model_uvs(m_, out.data(), out.size()));
        return out;
    }
    std::vector<std::uint32_t> anchors() const {
        std::vector<std::uint32_t> out(node_count());
        out.resize(sm_model_anchors(m_, out.data(), out.size()));
        return out;
    }
    const SmModel *get() const noexcept { return m_; }

private:
    SmModel *m_ = nullptr;
};

/// A simulation of a model (which it copies: the model may go first).
class Simulation {
public:
    explicit Simulation(const Model &model) { detail::check(sm_sim_new(model.get(), &s_)); }
    ~Simulation() { sm_sim_free(s_); }
    Simulation(Simulation &&other) noexcept : s_(std::exchange(other.s_, nullptr)) {}
    Simulation &operator=(Simulation &&other) noexcept {
        std::swap(s_, other.s_);
        return *this;
    }
    Simulation(const Simulation &) = delete;
    Simulation &operator=(const Simulation &) = delete;

    void step(float dt) { detail::check(sm_sim_step(s_, dt)); }
    double time() const { return sm_sim_time(s_); }
    std::uint32_t node_count() const { return sm_sim_node_count(s_); }
    /// 3 floats per node; valid until the next step.
    const float *positions() const { return sm_sim_positions(s_); }
    std::vector<float> normals() const {
        std::vector<float> out(3 * std::size_t(node_count()));
        out.resize(sm_sim_copy_normals(s_, out.data(), out.size()));
        return out;
    }
    /// Vertices of the drawn surface (see Model::surface_vertex_count).
    std::uint32_t surface_vertex_count() const { return sm_sim_surface_vertex_count(s_); }
    /// What a game draws each frame: 3 floats per surface vertex.
    std::vector<float> surface_positions() const {
        std::vector<float> out(3 * std::size_t(surface_vertex_count()));
        out.resize(sm_sim_copy_surface_positions(s_, out.data(), out.size()));
        return out;
    }
    /// Unit normals, 3 floats per surface vertex.
    std::vector<float> surface_normals() const {
        std::vector<float> out(3 * std::size_t(surface_vertex_count()));
        out.resize(sm_sim_copy_surface_normals(s_, out.data(), out.size()));
        return out;
    }
    void set_anchor_position(std::uint32_t node, const float xyz[3]) {
        detail::check(sm_sim_set_anchor_position(s_, node, xyz));
    }
    std::vector<std::uint32_t> broken_springs() const {
        std::vector<std::uint32_t> out(1024);
        out.resize(sm_sim_broken_springs(s_, out.data(), out.size()));
        return out;
    }
    SmEnergy energy() const {
        SmEnergy e{};
        sm_sim_energy(s_, &e);
        return e;
    }
    void set_gravity(const float g[3]) { detail::check(sm_sim_set_gravity(s_, g)); }
    void set_wind(const float w[3]) { detail::check(sm_sim_set_wind(s_, w)); }
    void set_collider_pose(std::uint32_t index, const float position[3],
                           const float rotation[4] = nullptr) {
        detail::check(sm_sim_set_collider_pose(s_, index, position, rotation));
    }
    /// The skeleton the model is worn on: its joints, by name.
    std::uint32_t joint_count() const noexcept { return sm_sim_joint_count(s_); }
    std::string joint_name(std::uint32_t index) const {
        const char *name = sm_sim_joint_name(s_, index);
        if (name == nullptr) throw Error(SM_ERR_ARGUMENT, sm_last_error());
        return name;
    }
    /// Each joint's world matrix at rest, 16 floats each (column-major).
    std::vector<float> rest_pose() const {
        std::vector<float> out(16 * std::size_t(joint_count()));
        out.resize(sm_sim_rest_pose(s_, out.data(), out.size()));
        return out;
    }
    /// The joints' world matrices for the next step, 16 floats each (column-major).
    void set_pose(const std::vector<float> &matrices) {
        detail::check(sm_sim_set_pose(s_, matrices.data(), std::uint32_t(matrices.size() / 16)));
    }
    /// The pose for the next step, the cloth first carried with the character's rigid motion.
    void teleport(const std::vector<float> &matrices) {
        detail::check(sm_sim_teleport(s_, matrices.data(), std::uint32_t(matrices.size() / 16)));
    }
    /// The cloth put on the pose at rest.
    void reset(const std::vector<float> &matrices) {
        detail::check(sm_sim_reset(s_, matrices.data(), std::uint32_t(matrices.size() / 16)));
    }
    /// The game's rigid bodies the nodes meet from the next step on (once a frame).
    void set_rigid_bodies(const std::vector<SmRigidBody> &bodies) {
        detail::check(
            sm_sim_set_rigid_bodies(s_, bodies.data(), std::uint32_t(bodies.size())));
    }
    /// What each body took over the last step, 12 floats a body: linear and angular impulse,
    /// then how far to move and turn it before the engine's step.
    std::vector<float> rigid_impulses(std::size_t bodies) const {
        std::vector<float> out(12 * bodies);
        out.resize(sm_sim_rigid_impulses(s_, out.data(), out.size()));
        return out;
    }
    /// Adds a capsule collider; returns its index for set_collider_pose.
    std::uint32_t add_capsule(const float a[3], const float b[3], float radius,
                              float friction = 0.5f, float restitution = 0.0f) {
        std::uint32_t index = 0;
        detail::check(sm_sim_add_capsule(s_, a, b, radius, friction, restitution, &index));
        return index;
    }
    SmSim *get() noexcept { return s_; }

private:
    SmSim *s_ = nullptr;
};

}  // namespace springmesh

#endif  // SPRINGMESH_HPP
