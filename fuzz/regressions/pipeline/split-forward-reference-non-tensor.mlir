func.func @sp() {
  %0:2 = layout.split %x dim 1 [0, 2] : i16
  return
}
