import Shared

Workbook.main(StepInfo.self)
