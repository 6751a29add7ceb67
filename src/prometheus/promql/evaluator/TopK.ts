/**
 * `topk`/`bottomk` choose as Prometheus does, with Go's container/heap over the series in
 * input (label) order, so that ties go to the same series: a heap of the k best, whose
 * worst (its root) a better sample replaces. NaN always counts as the worst.
 */
export interface Member<L> {
  readonly labels: L
  readonly value: number
}

export const selectK = <L>(
  top: boolean,
  members: ReadonlyArray<Member<L>>,
  k: number
): Array<Member<L>> => {
  k = Math.trunc(k)
  if (!(k >= 1)) return []
  // The root is the worst kept: for topk the smallest, for bottomk the largest.
  const less = (a: number, b: number) => (Number.isNaN(a) ? true : top ? a < b : a > b)
  const heap: Array<Member<L>> = []
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    heap[i] = heap[j]!
    heap[j] = t
  }
  const up = (start: number) => {
    let j = start
    for (;;) {
      const i = Math.floor((j - 1) / 2)
      if (j <= 0 || i === j || !less(heap[j]!.value, heap[i]!.value)) break
      swap(i, j)
      j = i
    }
  }
  const down = (start: number) => {
    let i = start
    const n = heap.length
    for (;;) {
      const left = 2 * i + 1
      if (left >= n) break
      let j = left
      if (left + 1 < n && less(heap[left + 1]!.value, heap[left]!.value)) j = left + 1
      if (!less(heap[j]!.value, heap[i]!.value)) break
      swap(i, j)
      i = j
    }
    return i > start
  }
  for (const member of members) {
    if (heap.length < k) {
      heap.push(member)
      up(heap.length - 1)
      continue
    }
    const worst = heap[0]!.value
    const better = top ? worst < member.value : worst > member.value
    if (better || (Number.isNaN(worst) && !Number.isNaN(member.value))) {
      heap[0] = member
      if (k > 1 && !down(0)) up(0)
    }
  }
  return heap
}
