"""Builds 21527001.zip in the handout's layout (src/hw5.c, report/report.pdf) from
no_flip_cap/no_flip_cap.c, so a test can check that a zip grades the same as its unpacked hw5.c.
Entries are stored uncompressed with a fixed date, so the zip is reproducible and the test
can find the source bytes inside it. Run from any directory: python3 make_zip.py"""

import pathlib
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
FIXED_DATE = (2014, 12, 31, 23, 59, 58)
ENTRIES = {
    "src/hw5.c": (HERE / "no_flip_cap" / "no_flip_cap.c").read_bytes(),
    "report/report.pdf": b"%PDF-1.4\n% placeholder report\n%%EOF\n",
}


def main():
    with zipfile.ZipFile(HERE / "21527001.zip", "w", zipfile.ZIP_STORED) as archive:
        for name, data in ENTRIES.items():
            info = zipfile.ZipInfo(name, FIXED_DATE)
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)


if __name__ == "__main__":
    main()
