func.func @as_strided_dynamic(%s: !layout.storage<?xf32>, %n: index, %st: index, %o: index)
