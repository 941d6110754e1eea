// Runs Parley's CUDA kernels under the CPU emulation of cuda_emu.h and checks them against plain C++ references of
// the CPU engine's arithmetic. Built and run by scripts/emulate-kernels.sh; exits 1 on the first mismatch.
#include "cuda_emu.h"
#include "cuda_fp16.h"
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

extern "C" {
void mmv_q8(const int8_t*, const unsigned short*, const int8_t*, const float*, float*, int, int, int);
void mmq_q8(const int8_t*, const unsigned short*, const int8_t*, const float*, float*, int, int, int);
void embed_q8(const int8_t*, const unsigned short*, const int*, float*, int);
void quantize_q8(const float*, int8_t*, float*, int);
void rms_norm(const float*, const float*, float*, int, float);
void add_inplace(float*, const float*, int);
void add_bias(float*, const float*, int, int);
void silu_mul(const float*, float*, int);
void gather_rows(const float*, const int*, float*, int);
void rope(float*, const int*, const float*, const float*, int, int, int, int, float);
void kv_store(const float*, __half*, __half*, const int*, int, int, int, int);
void attention(const float*, const __half*, const __half*, float*, const int*, const int*, const int*, int, int, int,
               int, int, int, float);
void argmax_rows(const float*, int*, int);
void softmax_rows(float*, int, float);
}

static int failures = 0;
static std::mt19937 rng(7);

static float gauss() { return std::normal_distribution<float>(0.f, 1.f)(rng); }

static void check(bool ok, const std::string& what) {
    if (!ok) {
        std::printf("FAIL: %s\n", what.c_str());
        if (++failures > 5) {
            std::exit(1);
        }
    }
}

static unsigned short half_bits(float f) {
    __half h = (__half) f;
    unsigned short b;
    std::memcpy(&b, &h, 2);
    return b;
}

static float half_value(unsigned short b) { return (float) __ushort_as_half(b); }

/** The CPU's Activations quantization. */
static void quantize_ref(const std::vector<float>& x, std::vector<int8_t>& q, std::vector<float>& d) {
    size_t blocks = x.size() / 32;
    q.assign(x.size(), 0);
    d.assign(blocks, 0);
    for (size_t b = 0; b < blocks; b++) {
        float amax = 0;
        for (int j = 0; j < 32; j++) amax = std::fmax(amax, std::fabs(x[b * 32 + j]));
        float id = amax != 0 ? 127.f / amax : 0.f;
        d[b] = (float) (__half) (amax / 127.f);
        for (int j = 0; j < 32; j++) q[b * 32 + j] = (int8_t) std::nearbyint(x[b * 32 + j] * id);
    }
}

static void test_quantize_and_matmul() {
    int rows = 200, cols = 320;
    std::vector<int8_t> wq(rows * cols);
    std::vector<unsigned short> wd(rows * cols / 32);
    for (auto& v : wq) v = (int8_t) (rng() % 255 - 127);
    for (auto& v : wd) v = half_bits(0.01f + 0.05f * (rng() % 1000) / 1000.f);
    for (int count : {1, 5, 8, 9, 40}) {
        std::vector<float> x(count * cols);
        for (auto& v : x) v = gauss();
        for (int j = 0; j < 32; j++) x[32 + j] = 0;  // an all-zero block
        std::vector<int8_t> rq, q(count * cols);
        std::vector<float> rd, d(count * cols / 32);
        quantize_ref(x, rq, rd);
        launch<const float*, int8_t*, float*, int>({(unsigned) ((count * cols + 255) / 256)}, {256}, quantize_q8,
                x.data(), q.data(), d.data(), count * cols / 32);
        check(q == rq && d == rd, "quantize_q8 equals the CPU's quantization, count " + std::to_string(count));
        std::vector<float> out(count * rows);
        bool tiled = count > 8;
        if (tiled) {
            launch<const int8_t*, const unsigned short*, const int8_t*, const float*, float*, int, int, int>(
                    {(unsigned) ((rows + 63) / 64), (unsigned) ((count + 31) / 32)}, {256}, mmq_q8, wq.data(),
                    wd.data(), q.data(), d.data(), out.data(), rows, cols, count);
        } else {
            launch<const int8_t*, const unsigned short*, const int8_t*, const float*, float*, int, int, int>(
                    {(unsigned) ((rows + 3) / 4), (unsigned) ((count + 7) / 8)}, {128}, mmv_q8, wq.data(), wd.data(),
                    q.data(), d.data(), out.data(), rows, cols, count);
        }
        for (int t = 0; t < count; t++) {
            for (int r = 0; r < rows; r++) {
                float sum = 0;
                for (int b = 0; b < cols / 32; b++) {
                    int isum = 0;
                    for (int j = 0; j < 32; j++) isum += wq[r * cols + b * 32 + j] * rq[t * cols + b * 32 + j];
                    sum += (half_value(wd[r * cols / 32 + b]) * rd[t * cols / 32 + b]) * (float) isum;
                }
                float got = out[t * rows + r];
                bool ok = tiled ? got == sum : std::fabs(got - sum) <= 1e-5f * std::fmax(1.f, std::fabs(sum));
                check(ok, std::string(tiled ? "mmq_q8" : "mmv_q8") + " count " + std::to_string(count) + " (" +
                          std::to_string(t) + ", " + std::to_string(r) + "): " + std::to_string(got) + " vs " +
                          std::to_string(sum));
            }
        }
    }
    std::printf("quantize_q8, mmv_q8, mmq_q8: checked\n");
}

static void test_norm_and_elementwise() {
    int count = 3, dim = 1000;
    std::vector<float> x(count * dim), w(dim), out(count * dim);
    for (auto& v : x) v = gauss();
    for (auto& v : w) v = gauss();
    launch<const float*, const float*, float*, int, float>({(unsigned) count}, {256}, rms_norm, x.data(), w.data(),
            out.data(), dim, 1e-5f);
    for (int t = 0; t < count; t++) {
        double ss = 0;
        for (int i = 0; i < dim; i++) ss += (double) (x[t * dim + i] * x[t * dim + i]);
        float scale = 1.f / std::sqrt((float) (ss / dim) + 1e-5f);
        for (int i = 0; i < dim; i++) {
            check(std::fabs(out[t * dim + i] - (x[t * dim + i] * scale) * w[i]) <= 1e-6f, "rms_norm");
        }
    }
    // SwiGLU over rows of [gate | up], bias add with a stride, gathers, embedding rows.
    int ffn = 300;
    std::vector<float> gu(count * 2 * ffn), h(count * ffn);
    for (auto& v : gu) v = gauss();
    launch<const float*, float*, int>({(unsigned) ((ffn + 255) / 256), (unsigned) count}, {256}, silu_mul, gu.data(),
            h.data(), ffn);
    for (int t = 0; t < count; t++) {
        for (int i = 0; i < ffn; i++) {
            float g = gu[t * 2 * ffn + i];
            check(std::fabs(h[t * ffn + i] - g / (1.f + std::exp(-g)) * gu[t * 2 * ffn + ffn + i]) <= 1e-6f, "silu_mul");
        }
    }
    std::vector<float> y(count * 50, 1.f), bias(40);
    for (int i = 0; i < 40; i++) bias[i] = (float) i;
    launch<float*, const float*, int, int>({1, (unsigned) count}, {256}, add_bias, y.data(), bias.data(), 40, 50);
    for (int t = 0; t < count; t++) {
        for (int i = 0; i < 50; i++) check(y[t * 50 + i] == (i < 40 ? 1.f + i : 1.f), "add_bias");
    }
    std::vector<int> rows = {2, 0};
    std::vector<float> g(2 * dim);
    launch<const float*, const int*, float*, int>({2}, {256}, gather_rows, x.data(), rows.data(), g.data(), dim);
    check(std::memcmp(g.data(), x.data() + 2 * dim, dim * 4) == 0 && std::memcmp(g.data() + dim, x.data(), dim * 4) == 0,
          "gather_rows");
    int vocab = 10, edim = 64;
    std::vector<int8_t> eq(vocab * edim);
    std::vector<unsigned short> ed(vocab * edim / 32);
    for (auto& v : eq) v = (int8_t) (rng() % 255 - 127);
    for (auto& v : ed) v = half_bits(0.02f);
    std::vector<int> tokens = {7, 3};
    std::vector<float> e(2 * edim);
    launch<const int8_t*, const unsigned short*, const int*, float*, int>({2}, {256}, embed_q8, eq.data(), ed.data(),
            tokens.data(), e.data(), edim);
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < edim; i++) {
            check(e[r * edim + i] == half_value(ed[(tokens[r] * edim + i) / 32]) * eq[tokens[r] * edim + i], "embed_q8");
        }
    }
    std::printf("rms_norm, silu_mul, add_bias, gather_rows, embed_q8: checked\n");
}

static void test_rope() {
    int count = 2, heads = 3, hs = 16, pairs = 6, stride = 60;
    for (int neox = 0; neox < 2; neox++) {
        std::vector<float> x(count * stride), before;
        for (auto& v : x) v = gauss();
        before = x;
        std::vector<int> pos = {5, 900};
        std::vector<float> powers(pairs), factors(pairs);
        float s = std::pow(10000.f, -2.f / 12);
        powers[0] = 1;
        for (int i = 1; i < pairs; i++) powers[i] = powers[i - 1] * s;
        for (int i = 0; i < pairs; i++) factors[i] = 1.f + i;
        launch<float*, const int*, const float*, const float*, int, int, int, int, float>(
                {(unsigned) count, (unsigned) heads}, {32}, rope, x.data(), pos.data(), powers.data(), factors.data(),
                stride, hs, pairs, neox, 0.5f);
        for (int t = 0; t < count; t++) {
            for (int h = 0; h < heads; h++) {
                std::vector<bool> touched(hs, false);
                for (int i = 0; i < pairs; i++) {
                    float th = 0.5f * ((pos[t] * powers[i]) / factors[i]);
                    int i0 = neox ? i : 2 * i, i1 = neox ? i + pairs : 2 * i + 1;
                    touched[i0] = touched[i1] = true;
                    int o = t * stride + h * hs;
                    float x0 = before[o + i0], x1 = before[o + i1];
                    check(std::fabs(x[o + i0] - (x0 * std::cos(th) - x1 * std::sin(th))) <= 1e-5f &&
                          std::fabs(x[o + i1] - (x0 * std::sin(th) + x1 * std::cos(th))) <= 1e-5f, "rope rotation");
                }
                for (int i = 0; i < hs; i++) {
                    if (!touched[i]) check(x[t * stride + h * hs + i] == before[t * stride + h * hs + i], "rope leaves the rest");
                }
            }
            for (int i = heads * hs; i < stride; i++) check(x[t * stride + i] == before[t * stride + i], "rope: other heads");
        }
    }
    std::printf("rope (NORM, NEOX, factors, partial rotation): checked\n");
}

static void test_paged_attention() {
    // Three sequences in a pool of 8 blocks of 4 positions; each step row is the last token of its sequence, and the
    // earlier positions were stored by kv_store in earlier steps, one row at a time.
    const int heads = 4, kvHeads = 2, hs = 48, qDim = heads * hs, kvDim = kvHeads * hs, stride = qDim + 2 * kvDim;
    const int bs = 4, blocks = 8;
    std::vector<std::vector<int>> tables = {{5, 1, 6}, {0}, {7, 2, 4, 3}};
    std::vector<int> lengths = {10, 3, 13};
    std::vector<__half> kc(blocks * bs * kvDim), vc(blocks * bs * kvDim);
    std::vector<std::vector<std::vector<float>>> rowsOf(3);  // the qkv rows of every position of every sequence
    for (int s = 0; s < 3; s++) {
        for (int p = 0; p < lengths[s]; p++) {
            std::vector<float> row(stride);
            for (auto& v : row) v = gauss();
            int slot = tables[s][p / bs] * bs + p % bs;
            launch<const float*, __half*, __half*, const int*, int, int, int, int>({1}, {256}, kv_store, row.data(),
                    kc.data(), vc.data(), &slot, stride, qDim, qDim + kvDim, kvDim);
            rowsOf[s].push_back(row);
        }
    }
    std::vector<int> flat, starts(3), positions(3);
    std::vector<float> qkv(3 * stride), out(3 * qDim);
    for (int s = 0; s < 3; s++) {
        starts[s] = (int) flat.size();
        flat.insert(flat.end(), tables[s].begin(), tables[s].end());
        positions[s] = lengths[s] - 1;
        std::copy(rowsOf[s].back().begin(), rowsOf[s].back().end(), qkv.begin() + s * stride);
    }
    float scale = 1.f / std::sqrt((float) hs);
    launch<const float*, const __half*, const __half*, float*, const int*, const int*, const int*, int, int, int, int,
           int, int, float>({3, (unsigned) heads}, {128}, attention, qkv.data(), kc.data(), vc.data(), out.data(),
            positions.data(), starts.data(), flat.data(), stride, hs, kvDim, heads / kvHeads, bs, qDim, scale);
    for (int s = 0; s < 3; s++) {
        for (int h = 0; h < heads; h++) {
            int kvh = h / (heads / kvHeads);
            std::vector<double> sc(lengths[s]);
            double mx = -1e300, sum = 0;
            for (int p = 0; p < lengths[s]; p++) {
                double dot = 0;
                for (int i = 0; i < hs; i++) {
                    dot += (double) qkv[s * stride + h * hs + i] * (float) (__half) rowsOf[s][p][qDim + kvh * hs + i];
                }
                sc[p] = dot * scale;
                mx = std::fmax(mx, sc[p]);
            }
            for (auto& v : sc) sum += (v = std::exp(v - mx));
            for (int i = 0; i < hs; i++) {
                double want = 0;
                for (int p = 0; p < lengths[s]; p++) {
                    want += sc[p] / sum * (float) (__half) rowsOf[s][p][qDim + kvDim + kvh * hs + i];
                }
                check(std::fabs(out[s * qDim + h * hs + i] - want) <= 1e-5, "attention seq " + std::to_string(s) +
                      " head " + std::to_string(h) + " dim " + std::to_string(i));
            }
        }
    }
    std::printf("kv_store, attention (paged, GQA, 3 sequences): checked\n");
}

static void test_sampling() {
    int rows = 3, vocab = 1000;
    std::vector<float> x(rows * vocab);
    for (auto& v : x) v = gauss();
    x[vocab + 17] = 100;
    x[vocab + 900] = 100;
    std::vector<int> best(rows);
    launch<const float*, int*, int>({(unsigned) rows}, {256}, argmax_rows, x.data(), best.data(), vocab);
    for (int r = 0; r < rows; r++) {
        int b = 0;
        for (int i = 1; i < vocab; i++) if (x[r * vocab + i] > x[r * vocab + b]) b = i;
        check(best[r] == b, "argmax row " + std::to_string(r));
    }
    check(best[1] == 17, "argmax: the lowest index among equals");
    launch<float*, int, float>({(unsigned) rows}, {256}, softmax_rows, x.data(), vocab, 1.f);
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int i = 0; i < vocab; i++) s += x[r * vocab + i];
        check(std::fabs(s - 1) < 1e-5, "softmax sums to 1");
    }
    check(std::fabs(x[vocab + 17] - 0.5f) < 1e-5 && std::fabs(x[vocab + 900] - 0.5f) < 1e-5, "softmax of a tie");
    std::printf("argmax_rows, softmax_rows: checked\n");
}

int main() {
    test_quantize_and_matmul();
    test_norm_and_elementwise();
    test_rope();
    test_paged_attention();
    test_sampling();
    std::printf(failures == 0 ? "all kernels agree with the references\n" : "%d mismatches\n", failures);
    return failures == 0 ? 0 : 1;
}
