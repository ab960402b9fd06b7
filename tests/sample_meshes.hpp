// Small hand-made meshes whose pictures and files the tests can work out by hand.
#pragma once
#include "cellgraph/source/mesh.hpp"

namespace cellgraph::test {

// A unit square cut along its diagonal into two triangles, plus one of its sides as a line
// element.
inline Mesh two_triangles() {
  Mesh mesh;
  mesh.nodes = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  mesh.element_type = {5, 5, 3};
  mesh.element_dim = {2, 2, 1};
  mesh.element_offsets = {0, 3, 6, 8};
  mesh.element_nodes = {0, 1, 2, 0, 2, 3, 0, 1};
  return mesh;
}

}  // namespace cellgraph::test
