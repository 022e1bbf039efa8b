// exr_reader_cxx.cpp — an EXR reader independent of the code under test (OpenEXR's C++ Imf::InputFile,
// not the core C API): prints "W H min max sum" of channel Y, and the first 4 values, for the tool test.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImathBox.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    try {
        Imf::InputFile file(argv[1]);
        Imath::Box2i dw = file.header().dataWindow();
        int w = dw.max.x - dw.min.x + 1, h = dw.max.y - dw.min.y + 1;
        std::vector<float> px((size_t)w * (size_t)h);
        Imf::FrameBuffer fb;
        fb.insert("Y", Imf::Slice(Imf::FLOAT, (char *)(px.data() - dw.min.x - (size_t)dw.min.y * w), sizeof(float), sizeof(float) * w));
        file.setFrameBuffer(fb);
        file.readPixels(dw.min.y, dw.max.y);
        double sum = 0;
        float lo = px[0], hi = px[0];
        for (float v : px) { sum += v; lo = v < lo ? v : lo; hi = v > hi ? v : hi; }
        std::printf("%d %d %.9g %.9g %.6f\n", w, h, lo, hi, sum);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "exr_reader_cxx: %s\n", e.what());
        return 1;
    }
    return 0;
}
