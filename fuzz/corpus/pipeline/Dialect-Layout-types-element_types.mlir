func.func @element_types(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>,
