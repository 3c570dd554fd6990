# SPDX-License-Identifier: BSD-3-Clause
# The q7pred image of docs/scale-out.md: Debian 12 with the CLI, the
# libraries and the numpy oracle installed by `make install` into
# /usr/local. Build it from a checkout:
#   docker build -t q7pred:0.1.0 .          (or podman build)
FROM debian:12-slim AS build
RUN apt-get update -q && apt-get install -y -q --no-install-recommends gcc make libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make -j"$(nproc)" lib cli && make install PREFIX=/usr/local DESTDIR=/out

FROM debian:12-slim
# python3-numpy: the numpy oracle (verify's default oracles include it)
RUN apt-get update -q && apt-get install -y -q --no-install-recommends python3 python3-numpy \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/usr/local/ /usr/local/
COPY LICENSE /usr/local/share/doc/q7pred/LICENSE
RUN ldconfig && q7pred verify --corpus grid --leaf lt_2_16_16 --oracles sem,host --no-progress --quiet
ENTRYPOINT ["q7pred"]
CMD ["--help"]
