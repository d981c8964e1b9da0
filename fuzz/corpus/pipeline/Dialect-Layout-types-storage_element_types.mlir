func.func @storage_element_types(%a: !layout.storage<4xi1>, %b: !layout.storage<4xi8>,
