"""Builds warpspan._core with CMake (the repository's CMakeLists.txt, option WARPSPAN_PYTHON) for
`pip install ./python`. The build tree itself needs none of this: PYTHONPATH=build/python."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(self.build_temp).resolve() / "cmake"
        args = [
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DCMAKE_BUILD_TYPE=Release",
            "-DWARPSPAN_PYTHON=ON",
            "-DWARPSPAN_BUILD_TESTS=OFF",
            "-DWARPSPAN_BUILD_BENCH=OFF",
        ]
        try:
            import pybind11

            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # Debian's pybind11-dev
        args += os.environ.get("WARPSPAN_CMAKE_ARGS", "").split()
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir)] + args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "warpspan_python", "-j", jobs], check=True)
        built = next((build_dir / "python" / "warpspan").glob("_core*"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(target))
        # warpspan.__python__: the interpreter it was built for
        self.copy_file(str(build_dir / "python" / "warpspan" / "_build_info.py"), str(target.parent / "_build_info.py"))


setup(ext_modules=[CMakeExtension("warpspan._core")], cmdclass={"build_ext": CMakeBuild})
