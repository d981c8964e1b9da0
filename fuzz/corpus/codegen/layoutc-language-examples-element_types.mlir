func.func @element_types(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>, %c: !layout.tensor<2xi16>, %d: !layout.tensor<2xi32>, %e: !layout.tensor<2xi64>, %f: !layout.tensor<2xui8>, %g: !layout.tensor<2xf16>, %h: !layout.tensor<2xbf16>, %i: !layout.tensor<2xf32>, %j: !layout.tensor<2xf64>) {
  return
}
