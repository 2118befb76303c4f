# mlsys in a Debian 12 container, CPU build (docs/PACKAGING.md):
#   docker build --build-arg GIT_SHA=$(git rev-parse --short=12 HEAD) -t mlsys .
#   docker run --rm -v "$PWD/results:/work/results" mlsys simulate --out /work/results/sim
# Stage 1 builds and packages the .deb with the repository's own scripts/setup; stage 2 installs
# only that package (apt resolves its Debian dependencies) and checks that the quickstart runs.
FROM debian:12 AS build
ARG GIT_SHA=unknown
ENV DEBIAN_FRONTEND=noninteractive
COPY . /src
WORKDIR /src
RUN bash scripts/setup \
 && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMLSYS_WITH_CUDA=OFF -DMLSYS_BUILD_TESTS=OFF \
          -DMLSYS_BUILD_BENCH=OFF -DMLSYS_GIT_SHA=${GIT_SHA} \
 && cmake --build build -j "$(nproc)" \
 && cd build && cpack -G DEB

FROM debian:12
ENV DEBIAN_FRONTEND=noninteractive
COPY --from=build /src/build/mlsys_*.deb /tmp/
RUN apt-get update -qq \
 && apt-get install -y -qq /tmp/mlsys_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/mlsys_*.deb \
 && mlsys version \
 && cd /tmp && mlsys-quickstart >/dev/null && rm -rf /tmp/results
WORKDIR /work
ENTRYPOINT ["mlsys"]
CMD ["--help"]
