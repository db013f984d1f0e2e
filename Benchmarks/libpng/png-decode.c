/* The libpng reference for the workbook's decoder benchmark.
 *
 *   png-decode SET RUNS FILE...
 *
 * Reads every file into memory, then decodes them all to 8-bit RGBA with libpng (palette and low bit
 * depths expanded, tRNS turned into alpha, grey turned into RGB, 16-bit samples scaled to 8 bits, Adam7
 * passes combined): the same work and the same output as PNGDecoder, into a newly allocated buffer each
 * time (as PNGDecoder returns a new bitmap), freed after. One untimed run, then RUNS timed runs, each
 * timed in CPU time; prints the figure lines Benchmarks/run collects (key, unit, median, min, max, note).
 *
 * Build: cc -O2 -o png-decode png-decode.c -lpng   (Debian: apt-get install libpng-dev)
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct input { unsigned char *bytes; size_t size, offset; };

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    struct input *in = png_get_io_ptr(png);
    if (in->size - in->offset < count) png_error(png, "read past the end");
    memcpy(out, in->bytes + in->offset, count);
    in->offset += count;
}

/* Decodes one file to RGBA into a new buffer, then frees it; returns the pixel count, 0 on error. */
static size_t decode(struct input *in) {
    unsigned char *pixels = NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_bytep *rows = NULL;
    size_t count = 0;
    in->offset = 0;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    png_set_read_fn(png, in, read_from_memory);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int type = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    pixels = malloc((size_t)width * height * 4);
    rows = malloc(sizeof(png_bytep) * height);
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    count = (size_t)width * height;
    free(rows);
    free(pixels);
    png_destroy_read_struct(&png, &info, NULL);
    return count;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: other processes do not count */
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void emit(const char *key, const char *unit, double *values, int n, const char *note) {
    qsort(values, n, sizeof(double), by_value);
    double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    printf("%s\t%s\t%.6g\t%.6g\t%.6g\t%s\n", key, unit, median, values[0], values[n - 1], note);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: png-decode SET RUNS FILE...\n");
        return 2;
    }
    const char *set = argv[1];
    int runs = atoi(argv[2]), files = argc - 3;
    if (runs < 1) runs = 1;
    struct input *inputs = calloc(files, sizeof *inputs);
    size_t total = 0, pixels = 0;
    for (int i = 0; i < files; i++) {
        FILE *f = fopen(argv[3 + i], "rb");
        if (!f) { perror(argv[3 + i]); return 1; }
        fseek(f, 0, SEEK_END);
        inputs[i].size = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        inputs[i].bytes = malloc(inputs[i].size);
        if (fread(inputs[i].bytes, 1, inputs[i].size, f) != inputs[i].size) { perror(argv[3 + i]); return 1; }
        fclose(f);
        total += inputs[i].size;
        size_t decoded = decode(&inputs[i]); /* the untimed run */
        if (!decoded) { fprintf(stderr, "libpng could not decode %s\n", argv[3 + i]); return 1; }
        pixels += decoded;
    }
    double *mbps = malloc(sizeof(double) * runs), *mpxps = malloc(sizeof(double) * runs);
    for (int r = 0; r < runs; r++) {
        double start = now();
        for (int i = 0; i < files; i++) decode(&inputs[i]);
        double seconds = now() - start;
        mbps[r] = total / 1e6 / seconds;
        mpxps[r] = pixels / 1e6 / seconds;
    }
    char key[256], note[256];
    snprintf(note, sizeof note, "%d files, %zu bytes, %zu px", files, total, pixels);
    snprintf(key, sizeof key, "decode.%s.MBps", set);
    emit(key, "MB/s", mbps, runs, note);
    snprintf(key, sizeof key, "decode.%s.Mpxps", set);
    emit(key, "Mpx/s", mpxps, runs, note);
    return 0;
}
