// An independent BulletML runner for Kairo's differential test (tests/bulletml_reference.rs):
// the system's libbulletml (Debian's libbulletml-dev) runs a pattern, and this harness moves
// the source and its bullets in double precision with the conventions of Kairo's bullet unit,
// then writes every frame to stdout.
//
// Conventions shared with the unit (docs/bullets.md):
// - coordinates in pixels, y down; directions in BulletML degrees (0 up, clockwise);
//   speeds and accel velocities in pixels per frame;
// - one turn per frame; per frame: the source's script (restarted the frame after it ends
//   or vanishes, as rRootage does with its bosses), then the scripts of the bullets alive at
//   the start of the frame, oldest first; then vanished bullets go; then every bullet moves
//   by speed along its heading plus its accel velocity; then bullets more than `margin`
//   pixels outside the screen go;
// - a fired bullet appears at its shooter's position and moves in the frame it is fired;
//   its script first runs the next frame;
// - the aim direction is toward the player, in [0, 360); the default speed is 1;
// - `$rank` is fixed; `$rand` comes from the same generator as the machine's (xorshift64*
//   seeded through SplitMix64), drawn in the same order;
// - the table holds `capacity` bullets; a bullet fired into a full table is dropped.
//
// Usage: harness FILE FRAMES RANK SEED SOURCE_X SOURCE_Y PLAYER_X PLAYER_Y MARGIN CAPACITY
//                 WIDTH HEIGHT
// Output, little-endian, per frame: u32 bullet count, then the source's direction, speed,
// accel x and accel y as f64, then x and y (f64) of each bullet, oldest first.

// The tinyxml parser's header needs the base parser's declared first.
// clang-format off
#include <bulletml/bulletmlerror.h>
#include <bulletml/bulletmlparser.h>
#include <bulletml/bulletmlparser-tinyxml.h>
#include <bulletml/bulletmlrunner.h>
// clang-format on

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

// The machine's generator: xorshift64* whose state comes from SplitMix64 of the seed.
class MachineRandom {
public:
    explicit MachineRandom(uint64_t seed) {
        uint64_t z = seed + 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        state_ = z == 0 ? 0x4B414952'4F21ull : z;
    }

    double next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        uint64_t bits = state_ * 0x2545F4914F6CDD1Dull;
        return static_cast<double>(bits >> 11) / static_cast<double>(1ull << 53);
    }

private:
    uint64_t state_;
};

// Something a script steers: the source or a bullet.
struct Mover {
    double x = 0, y = 0;
    double direction = 0, speed = 0;
    double accel_x = 0, accel_y = 0;
    bool vanished = false;
};

struct World;

// A libbulletml runner bound to one mover.
class Script : public BulletMLRunner {
public:
    Script(BulletMLParser* parser, Mover* mover, World* world)
        : BulletMLRunner(parser), mover_(mover), world_(world) {}
    Script(BulletMLState* state, Mover* mover, World* world)
        : BulletMLRunner(state), mover_(mover), world_(world) {}

    double getBulletDirection() override { return mover_->direction; }
    double getAimDirection() override;
    double getBulletSpeed() override { return mover_->speed; }
    double getDefaultSpeed() override { return 1.0; }
    double getRank() override;
    void createSimpleBullet(double direction, double speed) override;
    void createBullet(BulletMLState* state, double direction, double speed) override;
    int getTurn() override;
    void doVanish() override { mover_->vanished = true; }
    void doChangeDirection(double direction) override { mover_->direction = direction; }
    void doChangeSpeed(double speed) override { mover_->speed = speed; }
    void doAccelX(double velocity) override { mover_->accel_x = velocity; }
    void doAccelY(double velocity) override { mover_->accel_y = velocity; }
    double getBulletSpeedX() override { return mover_->accel_x; }
    double getBulletSpeedY() override { return mover_->accel_y; }
    double getRand() override;

private:
    Mover* mover_;
    World* world_;
};

struct Bullet {
    Mover mover;
    std::unique_ptr<Script> script;
};

struct World {
    BulletMLParser* parser = nullptr;
    MachineRandom random{0};
    double rank = 0.5;
    double player_x = 0, player_y = 0;
    double margin = 32, width = 256, height = 256;
    size_t capacity = 4096;
    int turn = 0;
    Mover source;
    std::unique_ptr<Script> source_script;
    // Oldest first; heap-allocated so that scripts keep pointing at their movers.
    std::vector<std::unique_ptr<Bullet>> bullets;

    void fire(const Mover& from, double direction, double speed, BulletMLState* state) {
        if (bullets.size() >= capacity) {
            delete state;  // libbulletml leaves an unused state to the caller
            return;
        }
        auto bullet = std::make_unique<Bullet>();
        bullet->mover.x = from.x;
        bullet->mover.y = from.y;
        bullet->mover.direction = direction;
        bullet->mover.speed = speed;
        if (state != nullptr) {
            bullet->script = std::make_unique<Script>(state, &bullet->mover, this);
        }
        bullets.push_back(std::move(bullet));
    }

    void frame() {
        // Bullets fired this frame, by the source too, start their scripts next frame.
        const size_t alive = bullets.size();
        if (source_script->isEnd() || source.vanished) {
            source_script = std::make_unique<Script>(parser, &source, this);
            source.vanished = false;
        }
        source_script->run();
        for (size_t i = 0; i < alive; i++) {
            Script* script = bullets[i]->script.get();
            if (script != nullptr && !script->isEnd()) {
                script->run();
            }
        }
        remove_if([](const Bullet& b) { return b.mover.vanished; });
        for (auto& b : bullets) {
            Mover& m = b->mover;
            const double radians = m.direction * M_PI / 180.0;
            m.x += std::sin(radians) * m.speed + m.accel_x;
            m.y += -std::cos(radians) * m.speed + m.accel_y;
        }
        remove_if([this](const Bullet& b) {
            const Mover& m = b.mover;
            return m.x < -margin || m.x > width + margin || m.y < -margin ||
                   m.y > height + margin;
        });
        turn++;
    }

    template <class Predicate>
    void remove_if(Predicate gone) {
        size_t kept = 0;
        for (size_t i = 0; i < bullets.size(); i++) {
            if (!gone(*bullets[i])) {
                std::swap(bullets[kept], bullets[i]);
                kept++;
            }
        }
        bullets.resize(kept);
    }

    void write_frame() const {
        const uint32_t count = static_cast<uint32_t>(bullets.size());
        std::fwrite(&count, sizeof count, 1, stdout);
        const double heading[4] = {source.direction, source.speed, source.accel_x,
                                   source.accel_y};
        std::fwrite(heading, sizeof heading, 1, stdout);
        for (const auto& b : bullets) {
            const double at[2] = {b->mover.x, b->mover.y};
            std::fwrite(at, sizeof at, 1, stdout);
        }
    }
};

double Script::getAimDirection() {
    const double dx = world_->player_x - mover_->x;
    const double dy = world_->player_y - mover_->y;
    double degrees = std::atan2(dx, -dy) * 180.0 / M_PI;
    if (degrees < 0) degrees += 360.0;
    if (degrees >= 360.0) degrees -= 360.0;
    return degrees;
}

double Script::getRank() { return world_->rank; }

void Script::createSimpleBullet(double direction, double speed) {
    world_->fire(*mover_, direction, speed, nullptr);
}

void Script::createBullet(BulletMLState* state, double direction, double speed) {
    world_->fire(*mover_, direction, speed, state);
}

int Script::getTurn() { return world_->turn; }

double Script::getRand() { return world_->random.next(); }

}  // namespace

int main(int argc, char** argv) {
    if (argc != 13) {
        std::fprintf(stderr,
                     "usage: %s FILE FRAMES RANK SEED SOURCE_X SOURCE_Y PLAYER_X PLAYER_Y "
                     "MARGIN CAPACITY WIDTH HEIGHT\n",
                     argv[0]);
        return 2;
    }
    const int frames = std::atoi(argv[2]);
    World world;
    world.rank = std::atof(argv[3]);
    world.random = MachineRandom(std::strtoull(argv[4], nullptr, 10));
    world.source.x = std::atof(argv[5]);
    world.source.y = std::atof(argv[6]);
    world.player_x = std::atof(argv[7]);
    world.player_y = std::atof(argv[8]);
    world.margin = std::atof(argv[9]);
    world.capacity = std::strtoull(argv[10], nullptr, 10);
    world.width = std::atof(argv[11]);
    world.height = std::atof(argv[12]);
    // A source heads down and stands still, as in the unit.
    world.source.direction = 180.0;
    try {
        BulletMLParserTinyXML parser(argv[1]);
        parser.build();
        world.parser = &parser;
        world.source_script = std::make_unique<Script>(&parser, &world.source, &world);
        for (int n = 0; n < frames; n++) {
            world.frame();
            world.write_frame();
        }
        // Scripts refer to the parser: end them first.
        world.bullets.clear();
        world.source_script.reset();
    } catch (const BulletMLError& e) {
        std::fprintf(stderr, "libbulletml: %s\n", e.what());
        return 1;
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}
